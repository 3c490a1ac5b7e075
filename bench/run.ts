/**
 * `npm run bench`: what a user feels, measured on this machine.
 *
 * Starts the panel as production runs it (`node dist/main.js`, NODE_ENV=production, PostgreSQL,
 * rate limiting off) in its own process, seeds 100 users / 5 nodes / 1,000 servers / 100 subusers,
 * starts the Wings simulator in a second process, and drives load with autocannon from a third
 * (bench/load.ts). Prints one table and writes bench/results/latest.json; any non-2xx answer or
 * connection error fails the run (exit code 1) after printing.
 *
 *   npm run bench [-- --only s1-key,s4] [--duration 10] [--warmup 2] [--connections 50] [--cpu-prof]
 *
 * --only runs the scenarios whose id starts with one of the given prefixes and writes
 * bench/results/partial.json instead. --cpu-prof runs the panel under `node --cpu-prof` and prints
 * the top self-time functions of the first load scenario's measured window.
 *
 *   npm run bench -- --large [--rebuild] [--large-duration 5] [--large-warmup 1]
 *   npm run bench -- --fleet [--only f01,f02]  (bench/fleet.ts: one and three processes on 100,000 servers)
 *
 * --large then also runs the same 14 calls at 1,000 and at 100,000 servers (bench/sizes.ts) on two
 * generated databases (bench/lib/large-seed.ts: hatchery_bench_large_1k and hatchery_bench_large,
 * built in SQL after the panel's migrations, kept and reused while current; --rebuild builds them
 * again), and adds their table and a `large` section to the results. `--only z` runs only those.
 */
import 'test/setup/register-paths';
import { ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { cpuTop, CpuTop, formatCpuTop } from 'bench/cpu-top';
import { importRows } from 'bench/import';
import type { LoadJob, LoadResult } from 'bench/load';
import { LoadDriver, startSimulator, stopChild } from 'bench/lib/children';
import type { Json } from 'bench/lib/http';
import { cpuMs, cpuSplitMs, machineBusyMs, PanelProcess, panelEnv, REPO_ROOT, RssSampler } from 'bench/lib/panel-process';
import { backendPids, checkPostgres, databaseUrl, dropDatabase, recreateDatabase } from 'bench/lib/pg-admin';
import { formatTable, Row, Target } from 'bench/lib/report';
import { ADMIN_EMAIL, PASSWORD, seed, Seeded, SEED } from 'bench/lib/seed';
import { FleetReport, formatFleet, runFleet } from 'bench/fleet';
import { formatSizesTable, runSizes, SizesReport } from 'bench/sizes';
import { samplerRows } from 'bench/usage-sampler';
import { freePort } from 'test/utils/free-port';
import { errorMessage } from 'src/common/errors/error-message';

// ---------------------------------------------------------------------------------------------
// Settings

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) {
    return undefined;
  }
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
};
const numberSetting = (name: string, env: string, fallback: number): number => {
  const raw = flag(name) ?? process.env[env];
  const v = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(v) || v < 0) {
    throw new Error(`--${name} / ${env} must be a number, got ${raw}`);
  }
  return v;
};

const SETTINGS = {
  durationSeconds: numberSetting('duration', 'BENCH_DURATION', 10),
  warmupSeconds: numberSetting('warmup', 'BENCH_WARMUP', 2),
  connections: numberSetting('connections', 'BENCH_CONNECTIONS', 50),
  coldRuns: numberSetting('cold-runs', 'BENCH_COLD_RUNS', 3),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
};
const ONLY = flag('only')
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const CPU_PROF = argv.includes('--cpu-prof');
const LARGE_RUN = argv.includes('--large');
const FLEET_RUN = argv.includes('--fleet');
const REBUILD = argv.includes('--rebuild');
const SIZE_SETTINGS = {
  durationSeconds: numberSetting('large-duration', 'BENCH_LARGE_DURATION', 5),
  warmupSeconds: numberSetting('large-warmup', 'BENCH_LARGE_WARMUP', 1),
};
/** Extra `node` flags for the panel under load (e.g. `--max-old-space-size=256`), space-separated. */
const EXTRA_NODE_ARGS = (process.env.BENCH_PANEL_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The databases a run creates and drops; two runs at once on one PostgreSQL need their own (BENCH_DB_NAME). */
const DB_NAME = process.env.BENCH_DB_NAME ?? 'hatchery_bench';
const COLD_DB_NAME = `${DB_NAME}_cold`;
const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
/** The bench's panel serves GET /metrics (row 9), as a monitored production panel would: its counters are on for every row. */
const METRICS_TOKEN = randomBytes(24).toString('hex');
const PROFILE_DIR = join(RESULTS_DIR, 'profiles');

const selected = (id: string): boolean => !ONLY || ONLY.some((p) => id.startsWith(p));
const log = (m: string): void => {
  process.stderr.write(`[bench] ${m}\n`);
};

// ---------------------------------------------------------------------------------------------
// Rows of the table

const rows: Row[] = [];
const failures: string[] = [];

// ---------------------------------------------------------------------------------------------
// Scenarios

interface LoadScenario {
  id: string;
  title: string;
  job: LoadJob;
  /** One request before the load; throws when the answer is not what the scenario is about. */
  probe: () => Promise<void>;
  target?: (r: LoadResult) => Target;
}

const round = (v: number, d = 2): number => Number(v.toFixed(d));

const speedTarget = (r: LoadResult): Target => ({
  text: '≥ 3000 req/s, p99 ≤ 50 ms',
  met: r.rps >= 3000 && r.latencyMs.p99 <= 50,
});

const expectStatus = async (what: string, url: string, init: RequestInit, check: (body: Json) => string | null): Promise<void> => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`${what}: the probe request answered ${res.status}: ${text.slice(0, 500)}`);
  }
  const problem = check(body);
  if (problem) {
    throw new Error(`${what}: ${problem}: ${text.slice(0, 500)}`);
  }
};

const loadScenarios = (panel: string, sim: string, s: Seeded): LoadScenario[] => {
  const c = SETTINGS.connections;
  const base = { warmupSeconds: SETTINGS.warmupSeconds, durationSeconds: SETTINGS.durationSeconds };
  const key = { authorization: `Bearer ${s.owner.key}` };
  const adminKey = { authorization: `Bearer ${s.adminKey}` };
  const pteroKey = { authorization: `Bearer ${s.owner.pterodactylKey}`, accept: 'Application/vnd.pterodactyl.v1+json' };
  const applicationKey = { authorization: `Bearer ${s.applicationKey}`, accept: 'Application/vnd.pterodactyl.v1+json' };
  const nodeAuth = { authorization: `Bearer ${s.node.tokenId}.${s.node.token}` };
  const first = s.ownerServers[0];
  const detailPaths = s.ownerServers.map((x) => `/api/client/servers/${x.identifier}`);
  const sftpBody = JSON.stringify({ type: 'password', username: `${s.owner.username}.${first.identifier}`, password: PASSWORD, ip: '203.0.113.9:5000' });
  const detailsCheck = (b: Json) => (b?.data?.status === 'offline' ? null : `expected the daemon's state "offline", got ${JSON.stringify(b?.data?.status)}`);
  const listOf = (n: number) => (b: Json) => (Array.isArray(b?.data) && b.data.length === n ? null : `expected ${n} servers`);
  const filesPanel = `/api/client/servers/${first.identifier}/files/list?directory=%2F`;
  const filesSim = `/api/servers/${first.uuid}/files/list-directory?directory=%2F`;
  const entries = 20;
  return [
    {
      id: 's1-key',
      title: '1. GET /api/client/servers/{id} (API key, owner)',
      job: { ...base, url: `${panel}${detailPaths[0]}`, paths: detailPaths, headers: key, connections: c },
      probe: () => expectStatus('s1-key', `${panel}${detailPaths[0]}`, { headers: key }, detailsCheck),
      target: speedTarget,
    },
    {
      id: 's1-cookie',
      title: '1. GET /api/client/servers/{id} (session cookie)',
      job: { ...base, url: `${panel}${detailPaths[0]}`, paths: detailPaths, headers: { cookie: s.owner.cookie }, connections: c },
      probe: () => expectStatus('s1-cookie', `${panel}${detailPaths[0]}`, { headers: { cookie: s.owner.cookie } }, detailsCheck),
      target: speedTarget,
    },
    {
      id: 's2-owner',
      title: '2. GET /api/client/servers (owner of 50)',
      job: { ...base, url: `${panel}/api/client/servers`, headers: key, connections: c },
      probe: () => expectStatus('s2-owner', `${panel}/api/client/servers`, { headers: key }, listOf(SEED.ownerServers)),
    },
    {
      id: 's2-admin',
      title: '2. GET /api/client/servers?type=admin-all (page 1)',
      job: { ...base, url: `${panel}/api/client/servers?type=admin-all&page=1`, headers: adminKey, connections: c },
      probe: () =>
        expectStatus('s2-admin', `${panel}/api/client/servers?type=admin-all&page=1`, { headers: adminKey }, (b) =>
          listOf(50)(b) ?? (b.meta?.pagination?.total === SEED.servers ? null : `expected a total of ${SEED.servers}`),
        ),
    },
    {
      id: 's2-pterodactyl',
      title: '2. GET /pterodactyl/api/client (Pterodactyl client key, owner of 50)',
      job: { ...base, url: `${panel}/pterodactyl/api/client`, headers: pteroKey, connections: c },
      probe: () => expectStatus('s2-pterodactyl', `${panel}/pterodactyl/api/client`, { headers: pteroKey }, listOf(SEED.ownerServers)),
    },
    {
      id: 's2-application',
      title: '2. GET /api/application/servers (Pterodactyl application key, page 1 of 50)',
      job: { ...base, url: `${panel}/api/application/servers?page=1`, headers: applicationKey, connections: Math.min(c, 4) },
      probe: () => expectStatus('s2-application', `${panel}/api/application/servers?page=1`, { headers: applicationKey }, listOf(50)),
    },
    {
      id: 's3-websocket',
      title: '3. GET /api/client/servers/{id}/websocket',
      job: { ...base, url: `${panel}${detailPaths[0]}/websocket`, paths: detailPaths.map((p) => `${p}/websocket`), headers: key, connections: c },
      probe: () => expectStatus('s3-websocket', `${panel}${detailPaths[0]}/websocket`, { headers: key }, (b) => (typeof b?.data?.token === 'string' ? null : 'no token')),
    },
    {
      id: 's4-panel-c1',
      title: '4. GET .../files/list via the panel (1 conn.)',
      job: { ...base, url: `${panel}${filesPanel}`, headers: key, connections: 1 },
      probe: () =>
        expectStatus('s4-panel-c1', `${panel}${filesPanel}`, { headers: key }, (b) => (b?.data?.entries?.length === entries ? null : `expected ${entries} entries`)),
    },
    {
      id: 's4-sim-c1',
      title: '4. GET list-directory straight from the simulator (1 conn.)',
      job: { ...base, url: `${sim}${filesSim}`, headers: { authorization: `Bearer ${s.node.token}` }, connections: 1 },
      probe: () =>
        expectStatus('s4-sim-c1', `${sim}${filesSim}`, { headers: { authorization: `Bearer ${s.node.token}` } }, (b) =>
          Array.isArray(b) && b.length === entries ? null : `expected ${entries} entries`,
        ),
    },
    {
      id: 's4-panel',
      title: '4. GET .../files/list via the panel',
      job: { ...base, url: `${panel}${filesPanel}`, headers: key, connections: c },
      probe: () => expectStatus('s4-panel', `${panel}${filesPanel}`, { headers: key }, () => null),
    },
    {
      id: 's5-remote',
      title: '5. GET /api/remote/servers?page=0&per_page=50 (node, 1 conn.)',
      job: { ...base, url: `${panel}/api/remote/servers?page=0&per_page=50`, headers: nodeAuth, connections: 1 },
      probe: () =>
        expectStatus('s5-remote', `${panel}/api/remote/servers?page=0&per_page=50`, { headers: nodeAuth }, (b) =>
          b?.data?.length === 50 && b?.meta?.total === SEED.servers ? null : `expected 50 of ${SEED.servers} servers`,
        ),
      target: (r) => ({ text: 'p99 ≤ 100 ms per page', met: r.latencyMs.p99 <= 100 }),
    },
    {
      id: 's6-sftp',
      title: '6. POST /api/remote/sftp/auth (password, 8 conn.)',
      job: { ...base, url: `${panel}/api/remote/sftp/auth`, method: 'POST', body: sftpBody, headers: { ...nodeAuth, 'content-type': 'application/json' }, connections: 8 },
      probe: () =>
        expectStatus('s6-sftp', `${panel}/api/remote/sftp/auth`, { method: 'POST', body: sftpBody, headers: { ...nodeAuth, 'content-type': 'application/json' } }, (b) =>
          b?.server === first.uuid ? null : 'the login was not accepted',
        ),
    },
    {
      id: 's9-metrics',
      title: '9. GET /metrics, a scrape of 1,000 servers on 5 nodes (1 conn.)',
      job: { ...base, url: `${panel}/metrics`, headers: { authorization: `Bearer ${METRICS_TOKEN}` }, connections: 1 },
      target: (r) => ({ text: 'p99 < 50 ms', met: r.latencyMs.p99 < 50 }),
      probe: async () => {
        const res = await fetch(`${panel}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(30_000) });
        const text = await res.text();
        const servers = [...text.matchAll(/^hatchery_servers\{state="[a-z_]+"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
        if (res.status !== 200 || servers !== SEED.servers) {
          throw new Error(`s9-metrics: the scrape answered ${res.status} with ${servers} servers, expected ${SEED.servers}: ${text.slice(0, 300)}`);
        }
      },
    },
  ];
};

/** One boot of a node as Wings does it: page=0, then pages 2..last_page at once. */
const nodeBoot = async (panel: string, node: Seeded['node']): Promise<{ ms: number; pages: number; servers: number }> => {
  const headers = { authorization: `Bearer ${node.tokenId}.${node.token}` };
  const started = process.hrtime.bigint();
  const page = async (n: number): Promise<Json> => {
    const res = await fetch(`${panel}/api/remote/servers?page=${n}&per_page=50`, { headers, signal: AbortSignal.timeout(60_000) });
    if (res.status !== 200) {
      throw new Error(`node boot: page ${n} answered ${res.status}`);
    }
    return res.json();
  };
  const first = await page(0);
  const rest = await Promise.all(Array.from({ length: first.meta.last_page - 1 }, (_, i) => page(i + 2)));
  const servers = [first, ...rest].reduce((n: number, p: Json) => n + p.data.length, 0);
  return { ms: round(Number(process.hrtime.bigint() - started) / 1e6, 1), pages: first.meta.last_page, servers };
};

// ---------------------------------------------------------------------------------------------
// Cold start

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Boot {
  ms: number;
  idleRssMiB: number | null;
}

const coldBoot = async (settings: Record<string, string>, logFile: string): Promise<Boot> => {
  const port = await freePort();
  const panel = new PanelProcess({
    port,
    logFile,
    env: panelEnv({ ...settings, PORT: String(port), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}` }),
  }).start();
  try {
    const ms = await panel.waitHealthy(120_000, 5);
    await new Promise((r) => setTimeout(r, 2000));
    return { ms: round(ms, 0), idleRssMiB: round(panel.rssMiB() ?? 0, 1) };
  } finally {
    await panel.stop();
  }
};

const coldStartRows = async (common: Record<string, string>, workDir: string): Promise<void> => {
  const runs = Math.max(1, Math.round(SETTINGS.coldRuns));
  const logFile = join(workDir, 'cold.log');
  const addRow = (id: string, scenario: string, boots: Boot[]): void => {
    const ms = boots.map((b) => b.ms);
    const rss = median(boots.map((b) => b.idleRssMiB ?? 0));
    const p50 = median(ms);
    rows.push({
      id,
      scenario,
      p50Ms: p50,
      p99Ms: Math.max(...ms),
      peakRssMiB: round(rss, 1),
      target: { text: 'start ≤ 3000 ms / idle RSS ≤ 150 MiB', met: p50 <= 3000 && rss <= 150, parts: [p50 <= 3000, rss <= 150] },
      extra: { boots },
    });
    log(`${scenario}: ${ms.join(', ')} ms; idle RSS ${boots.map((b) => b.idleRssMiB).join(', ')} MiB`);
  };

  if (selected('s7-pglite')) {
    const dir = join(workDir, 'pglite');
    const env = { ...common, DATA_DIR: workDir, PGLITE_DIR: dir };
    addRow('s7-pglite-first', '7. cold start, PGlite, first boot (migrations)', [await coldBoot(env, logFile)]);
    const warm: Boot[] = [];
    for (let i = 0; i < runs; i++) {
      warm.push(await coldBoot(env, logFile));
    }
    addRow('s7-pglite-warm', `7. cold start, PGlite (median of ${runs})`, warm);
  }
  if (selected('s7-pg')) {
    await recreateDatabase(COLD_DB_NAME);
    try {
      const env = { ...common, DATA_DIR: workDir, DATABASE_URL: databaseUrl(COLD_DB_NAME) };
      addRow('s7-pg-first', '7. cold start, PostgreSQL, first boot (migrations)', [await coldBoot(env, logFile)]);
      const warm: Boot[] = [];
      for (let i = 0; i < runs; i++) {
        warm.push(await coldBoot(env, logFile));
      }
      addRow('s7-pg-warm', `7. cold start, PostgreSQL (median of ${runs})`, warm);
    } finally {
      await dropDatabase(COLD_DB_NAME);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Output

const gitCommit = (): string | null => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};

// ---------------------------------------------------------------------------------------------
// Main

const main = async (): Promise<void> => {
  if (!existsSync(join(REPO_ROOT, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run bench` (it builds first) or `npm run build`');
  }
  const pgVersion = await checkPostgres();
  mkdirSync(RESULTS_DIR, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'hatchery-bench-'));
  const appKey = randomBytes(48).toString('base64');
  const common = { NODE_ENV: 'production', APP_KEY: appKey, RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: SETTINGS.logLevel };
  log(`settings: ${JSON.stringify(SETTINGS)}${ONLY ? `, only ${ONLY.join(',')}` : ''}${CPU_PROF ? ', --cpu-prof' : ''}; PostgreSQL ${pgVersion}`);

  let panel: PanelProcess | null = null;
  let simChild: ChildProcess | null = null;
  let driver: LoadDriver | null = null;
  let profileWindow: { from: number; to: number; id: string } | null = null;
  let profile: (CpuTop & { file: string; scenario: string; fromS: number; toS: number }) | null = null;
  const seeding: Record<string, unknown> = {};
  const wantsLoad = !ONLY || ONLY.some((p) => !p.startsWith('s7') && !p.startsWith('s8') && !p.startsWith('z') && !p.startsWith('f'));
  let sizes: SizesReport | null = null;
  let fleet: FleetReport | null = null;

  try {
    if (wantsLoad) {
      await recreateDatabase(DB_NAME);
      const port = await freePort();
      const simPort = await freePort();
      const panelUrl = `http://127.0.0.1:${port}`;
      if (CPU_PROF) {
        rmSync(PROFILE_DIR, { recursive: true, force: true });
        mkdirSync(PROFILE_DIR, { recursive: true });
      }
      const spawnedAt = process.hrtime.bigint();
      panel = new PanelProcess({
        port,
        logFile: join(workDir, 'panel.log'),
        nodeArgs: [...EXTRA_NODE_ARGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])],
        env: panelEnv({
          ...common,
          HOST: '127.0.0.1',
          PORT: String(port),
          APP_URL: panelUrl,
          DATABASE_URL: databaseUrl(DB_NAME),
          DATA_DIR: workDir,
          ADMIN_EMAIL,
          ADMIN_PASSWORD: PASSWORD,
          ADMIN_USERNAME: 'admin',
          METRICS_TOKEN,
          // The usage sampler (row 9 measures it on its own) would land in the rows' windows once a minute.
          USAGE_SAMPLE_INTERVAL_SECONDS: '3600',
        }),
      }).start();
      const bootMs = await panel.waitHealthy();
      log(`panel up in ${Math.round(bootMs)} ms (pid ${panel.pid}) at ${panelUrl}`);

      const seedStarted = Date.now();
      const seeded = await seed(panelUrl, databaseUrl(DB_NAME), simPort, log);
      seeding.counts = seeded.counts;
      seeding.egg = seeded.eggSource;
      const seedSeconds = round((Date.now() - seedStarted) / 1000, 1);
      seeding.seconds = seedSeconds;
      log(`seeded ${JSON.stringify(seeded.counts)} in ${seedSeconds} s`);

      const simStarted = Date.now();
      const sim = await startSimulator(panelUrl, seeded.node);
      simChild = sim.child;
      seeding.simulator = { servers: sim.ready.servers, pages: sim.ready.pages, firstBootFetchMs: round(sim.ready.bootMs, 1), readySeconds: round((Date.now() - simStarted) / 1000, 1) };
      log(`simulator up at ${sim.ready.url} with ${sim.ready.servers} servers (its boot fetch of ${sim.ready.pages} pages took ${Math.round(sim.ready.bootMs)} ms)`);
      if (sim.ready.servers !== SEED.servers) {
        throw new Error(`the simulator loaded ${sim.ready.servers} servers, expected ${SEED.servers}`);
      }

      driver = new LoadDriver();
      for (const sc of loadScenarios(panelUrl, sim.ready.url, seeded).filter((x) => selected(x.id))) {
        await sc.probe();
        panel.truncateLog();
        const sampler = new RssSampler(panel.pid).start();
        if (sc.job.warmupSeconds > 0) {
          await driver.run({ ...sc.job, durationSeconds: sc.job.warmupSeconds, warmupSeconds: 0 });
          // Requests the warm-up left in flight finish before the measured run starts.
          await new Promise((r) => setTimeout(r, 1000));
        }
        const from = Number(process.hrtime.bigint() - spawnedAt) / 1e9;
        const pids = { panel: panel.pid, simulator: simChild.pid, loadGenerator: driver.pid };
        const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
        // The panel's pool connections, open since the warm-up.
        // (The pool closes connections idle for 10 s: a backend gone by the end is left out, it was idle.)
        const pgBefore = new Map((await backendPids(DB_NAME)).map((pid) => [pid, cpuMs(pid)]));
        const loadBefore = loadavg()[0];
        const machineBefore = machineBusyMs();
        const panelSplitBefore = cpuSplitMs(panel.pid);
        const result = await driver.run({ ...sc.job, warmupSeconds: 0 });
        const machineAfter = machineBusyMs();
        const pgMs = [...pgBefore].reduce((sum, [pid, before]) => {
          const after = cpuMs(pid);
          return before === null || after === null ? sum : sum + Math.max(0, after - before);
        }, 0);
        const panelSplitAfter = cpuSplitMs(panel.pid);
        const panelSystemShare =
          panelSplitBefore && panelSplitAfter
            ? round(
                (panelSplitAfter.system - panelSplitBefore.system) /
                  Math.max(1, panelSplitAfter.system + panelSplitAfter.user - panelSplitBefore.system - panelSplitBefore.user),
              )
            : null;
        const to = Number(process.hrtime.bigint() - spawnedAt) / 1e9;
        // CPU per request of each process (the machine has 2 cores for all three, and for whatever else runs).
        const cpuPerReq = Object.fromEntries(
          Object.entries(pids).map(([k, pid]) => {
            const before = cpuBefore[k];
            const after = cpuMs(pid);
            return [k, before === null || after === null || result.requests === 0 ? null : round((after - before) / result.requests, 3)];
          }),
        );
        // What the rest of the machine (other engineers' builds and tests, not our PostgreSQL backends) used meanwhile, in cores.
        const ours = Object.entries(pids).reduce((sum, [k, pid]) => sum + ((cpuMs(pid) ?? 0) - (cpuBefore[k] ?? 0)), 0) + pgMs;
        cpuPerReq.postgres = result.requests === 0 ? null : round(pgMs / result.requests, 3);
        const otherCores =
          machineBefore === null || machineAfter === null ? null : round(Math.max(0, machineAfter - machineBefore - ours) / 1000 / result.seconds);
        profileWindow ??= { from, to, id: sc.id };
        const peakMiB = sampler.stop();
        // Straight to the simulator: the panel only idles.
        const peak = sc.id.startsWith('s4-sim') ? null : peakMiB;
        const row: Row = {
          id: sc.id,
          scenario: sc.title,
          connections: sc.job.connections,
          rps: result.rps,
          p50Ms: result.latencyMs.p50,
          p99Ms: result.latencyMs.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          peakRssMiB: peak,
          panelCpuMsPerReq: sc.id.startsWith('s4-sim') ? null : cpuPerReq.panel,
          target: sc.target?.(result),
          load: result,
          extra: { cpuMsPerRequest: cpuPerReq, panelSystemCpuShare: panelSystemShare, otherProcessesCores: otherCores, loadAverage1m: { before: round(loadBefore), after: round(loadavg()[0]) } },
        };
        if (row.non2xx || row.errors) {
          const problems = panel.problems();
          row.extra = { ...row.extra, statusCodes: result.statusCodes, panelLog: problems };
          failures.push(`${sc.id}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodes)}), ${result.errors} errors, ${result.timeouts} timeouts`);
        }
        rows.push(row);
        log(
          `${sc.id}: ${result.rps} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, ` +
            `errors ${result.errors + result.timeouts}, peak RSS ${peak ?? '—'} MiB, CPU ms/req ${JSON.stringify(cpuPerReq)}, other processes ${otherCores ?? '?'} cores`,
        );

        if (sc.id === 's4-sim-c1') {
          const viaPanel = rows.find((r) => r.id === 's4-panel-c1');
          if (viaPanel?.load) {
            const p50 = round(viaPanel.load.latencyMs.p50 - result.latencyMs.p50);
            const p99 = round(viaPanel.load.latencyMs.p99 - result.latencyMs.p99);
            rows.push({
              id: 's4-added',
              scenario: '4. latency the panel adds to a listing (1 conn.)',
              connections: 1,
              p50Ms: p50,
              p99Ms: p99,
              target: { text: 'added p50 ≤ 2 ms', met: p50 <= 2 },
            });
          }
        }
        if (sc.id === 's5-remote') {
          const boots = [];
          for (let i = 0; i < 5; i++) {
            boots.push(await nodeBoot(panelUrl, seeded.node));
          }
          const ms = median(boots.map((b) => b.ms));
          rows.push({
            id: 's5-boot',
            scenario: `5. node boot: all ${boots[0].pages} pages as Wings asks (median of 5)`,
            p50Ms: ms,
            p99Ms: Math.max(...boots.map((b) => b.ms)),
            extra: { boots, perPageMs: round(ms / boots[0].pages, 1) },
          });
        }
      }
      driver.stop();
      driver = null;
      await stopChild(simChild);
      simChild = null;
      await panel.stop();
      panel = null;

      if (CPU_PROF && profileWindow) {
        const file = readdirSync(PROFILE_DIR).find((f) => f.endsWith('.cpuprofile'));
        if (file !== undefined) {
          const top = cpuTop(join(PROFILE_DIR, file), { fromS: profileWindow.from, toS: profileWindow.to, top: 25 });
          profile = { ...top, file: join('bench', 'results', 'profiles', file), scenario: profileWindow.id, fromS: round(profileWindow.from), toS: round(profileWindow.to) };
          process.stdout.write(`\nCPU profile of the panel during ${profileWindow.id} (${profile.file}):\n${formatCpuTop(top)}\n`);
        }
      }
    }

    if (selected('s9-sampler')) {
      rows.push(...(await samplerRows(common, workDir, log)));
    }
    await coldStartRows(common, workDir);
    rows.push(...(await importRows(selected, appKey, log)));
    if (LARGE_RUN) {
      sizes = await runSizes({ ...SIZE_SETTINGS, rebuild: REBUILD, logLevel: SETTINGS.logLevel, workDir, selected, log });
      failures.push(...sizes.failures);
    }
    if (FLEET_RUN) {
      fleet = await runFleet({ ...SIZE_SETTINGS, durationSeconds: SETTINGS.durationSeconds, warmupSeconds: SETTINGS.warmupSeconds, rebuild: REBUILD, selected, log });
      failures.push(...fleet.failures);
    }
  } finally {
    driver?.stop();
    await stopChild(simChild);
    await panel?.stop();
    await dropDatabase(DB_NAME).catch((e: unknown) => log(`could not drop ${DB_NAME}: ${errorMessage(e)}`));
    rmSync(workDir, { recursive: true, force: true });
  }

  const table = formatTable(rows);
  process.stdout.write(`\n${table}\n\n`);
  process.stdout.write(
    'Latencies are measured by the client (autocannon, warm-up excluded). RSS is the panel process only (VmRSS sampled every 100 ms);\n' +
      'panel CPU ms/req is its user+system time over the measured window divided by the requests answered.\n' +
      'Cold start rows: p50/p99 = median/slowest time from process start to the first 200 from /api/health; RSS = idle, 2 s later.\n',
  );

  if (sizes) {
    process.stdout.write(
      `The same calls at 1,000 and 100,000 servers (--large; ${sizes.settings.durationSeconds} s each after ${sizes.settings.warmupSeconds} s of warm-up):\n` +
        `${formatSizesTable(sizes.rows)}\n` +
        'PG CPU ms/req is the user+system time of the PostgreSQL backends serving the panel over the window, per request;\n' +
        'the deep pages are the last ones at each size (admin server list: 20 / 2,000; audit log: about 200 / 20,000).\n\n',
    );
  }

  if (fleet) {
    process.stdout.write(`Several processes (--fleet, 100,000 servers; PgBouncer, Redis, HAProxy):\n${formatFleet(fleet)}\n\n`);
  }

  const report = {
    generatedAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, memoryGiB: round(totalmem() / 1024 ** 3, 1), kernel: release(), node: process.version },
    postgres: pgVersion,
    settings: { ...SETTINGS, only: ONLY ?? null, large: LARGE_RUN ? { ...SIZE_SETTINGS, rebuild: REBUILD } : null },
    seed: { target: SEED, ...seeding },
    scenarios: rows,
    cpuProfile: profile,
    large: sizes,
    fleet,
    failures,
  };
  const out = join(RESULTS_DIR, ONLY ? 'partial.json' : 'latest.json');
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`Results written to ${out.replace(`${REPO_ROOT}/`, '')}\n`);

  if (failures.length > 0) {
    process.stderr.write(`\nBENCH FAILED: requests answered outside 2xx or failed:\n  ${failures.join('\n  ')}\n`);
    for (const r of rows.filter((x) => x.extra?.panelLog)) {
      process.stderr.write(`panel log during ${r.id}:\n  ${(r.extra!.panelLog as string[]).join('\n  ')}\n`);
    }
    process.exitCode = 1;
  }
};

main().catch((e: unknown) => {
  process.stderr.write(`\nBENCH FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  if (rows.length > 0) {
    process.stdout.write(`\n${formatTable(rows)}\n`);
  }
  process.exit(1);
});
