/**
 * `npm run bench -- --large`: the same calls at 1,000 and at 100,000 servers (docs/benchmarks.md, "At two sizes").
 *
 * Both databases come from bench/lib/large-seed.ts (SMALL and LARGE: the same data, the small one
 * 1/100 of the large), are built once and reused while current. For each size the panel runs as in
 * the rest of the bench (its own process, production mode) with the Wings simulator on node 1, and
 * every scenario below is measured with the same call shape: req/s, p50/p99, and the CPU time per
 * request of the panel and of the PostgreSQL backends serving it (from /proc). The comparison rows
 * carry the ratio large/small and the targets of the issue.
 */
import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import type { LoadJob, LoadResult } from 'bench/load';
import { LoadDriver, startSimulator, stopChild } from 'bench/lib/children';
import { expectApi, Json } from 'bench/lib/http';
import { ensureLargeDatabase, LARGE, LARGE_DB_NAME, LARGE_PANEL_ENV, LargeInfo, Shape, SMALL } from 'bench/lib/large-seed';
import { cpuMs, machineBusyMs, PanelProcess, panelEnv } from 'bench/lib/panel-process';
import { backendPids, databaseUrl, PG_ADMIN_URL } from 'bench/lib/pg-admin';
import { Target } from 'bench/lib/report';
import { ADMIN_EMAIL, newKey, OWNER_EMAIL, signIn } from 'bench/lib/seed';
import { freePort } from 'test/utils/free-port';

/**
 * The two databases (BENCH_LARGE_DB renames them, `<name>` and `<name>_1k`, so that two branches
 * with different migrations on one PostgreSQL server do not rebuild each other's).
 */
const LARGE_NAME = process.env.BENCH_LARGE_DB || LARGE_DB_NAME;
const SMALL_DB_NAME = process.env.BENCH_LARGE_DB ? `${process.env.BENCH_LARGE_DB}_1k` : 'hatchery_bench_large_1k';

interface SizesSettings {
  rebuild: boolean;
  durationSeconds: number;
  warmupSeconds: number;
  logLevel: string;
  workDir: string;
  /** Scenario ids to run (prefix match); all when absent. */
  selected: (id: string) => boolean;
  log: (m: string) => void;
}

type Size = 'small' | 'large';

interface SizeMeasure {
  connections: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  panelCpuMsPerReq: number | null;
  postgresCpuMsPerReq: number | null;
  /** Cores the rest of the machine (not the panel, its PostgreSQL backends, the simulator or the load generator) used in the window. */
  otherProcessesCores: number | null;
  /** What the call asked for at this size (the deep pages differ). */
  path: string;
}

export interface SizeRow {
  id: string;
  scenario: string;
  small?: SizeMeasure;
  large?: SizeMeasure;
  /** large / small. */
  ratio?: { p50: number; p99: number; panelCpu: number | null; postgresCpu: number | null };
  target?: Target;
}

export interface SizesReport {
  databases: Record<Size, { name: string; counts: Record<string, number>; reused: boolean; buildSeconds: number }>;
  settings: { durationSeconds: number; warmupSeconds: number };
  rows: SizeRow[];
  failures: string[];
}

interface Ctx {
  panel: string;
  info: LargeInfo;
  ownerKey: string;
  adminKey: string;
  pteroKey: string;
  appKey: string;
  node: string;
  auditLastPage: number;
  serverLastPage: number;
  externalId: string;
}

interface Scenario {
  id: string;
  title: string;
  connections: number;
  method?: 'GET' | 'POST';
  body?: string;
  path: (c: Ctx) => string;
  /** Rotated paths (the details of each of the owner's servers). */
  paths?: (c: Ctx) => string[];
  headers: (c: Ctx) => Record<string, string>;
  /** A problem with the probe's answer, or null. */
  check: (b: Json, c: Ctx) => string | null;
  /** Panel CPU ms per request at 100k. */
  cpuTarget?: number;
  /** p50 at 100k. */
  latencyTargetMs?: number;
}

const round = (v: number, d = 2): number => Number(v.toFixed(d));
const listOf = (n: number) => (b: Json) => (Array.isArray(b?.data) && b.data.length === n ? null : `expected ${n} entries, got ${Array.isArray(b?.data) ? b.data.length : 'none'}`);
const someOf = (b: Json): string | null => (Array.isArray(b?.data) && b.data.length > 0 ? null : 'expected entries');
const PER_PAGE = 50;
/** The admin search: a fragment of a name ("Server 77", "Server 770".. and at 100k "Server 7700".. too). */
const SEARCH = 'rver 77';

const key = (k: string): Record<string, string> => ({ authorization: `Bearer ${k}` });
const ptero = (k: string): Record<string, string> => ({ authorization: `Bearer ${k}`, accept: 'Application/vnd.pterodactyl.v1+json' });

const SCENARIOS: Scenario[] = [
  {
    id: 'z01-details',
    title: 'GET /api/client/servers/{id} (API key)',
    connections: 8,
    path: (c) => `/api/client/servers/${c.info.ownerServers[0].identifier}`,
    paths: (c) => c.info.ownerServers.map((s) => `/api/client/servers/${s.identifier}`),
    headers: (c) => key(c.ownerKey),
    check: (b) => (typeof b?.data?.status === 'string' ? null : 'no daemon state'),
    cpuTarget: 0.12,
  },
  {
    id: 'z02-own-list',
    title: 'GET /api/client/servers (owner of 50)',
    connections: 8,
    path: () => '/api/client/servers',
    headers: (c) => key(c.ownerKey),
    check: listOf(50),
    cpuTarget: 0.6,
  },
  {
    id: 'z03-admin-all',
    title: 'GET /api/client/servers?type=admin-all (page 1)',
    connections: 8,
    path: () => '/api/client/servers?type=admin-all&page=1',
    headers: (c) => key(c.adminKey),
    check: listOf(PER_PAGE),
    cpuTarget: 0.6,
  },
  {
    id: 'z04-admin-last',
    title: 'GET /api/admin/servers, last page',
    connections: 4,
    path: (c) => `/api/admin/servers?page=${c.serverLastPage}`,
    headers: (c) => key(c.adminKey),
    check: someOf,
  },
  {
    id: 'z05-admin-search',
    title: `GET /api/admin/servers?search=${SEARCH}`,
    connections: 2,
    path: () => `/api/admin/servers?search=${encodeURIComponent(SEARCH)}&page=1`,
    headers: (c) => key(c.adminKey),
    check: someOf,
    latencyTargetMs: 50,
  },
  {
    id: 'z06-audit-first',
    title: 'GET /api/admin/audit-logs (page 1)',
    connections: 4,
    path: () => `/api/admin/audit-logs?page=1`,
    headers: (c) => key(c.adminKey),
    check: listOf(PER_PAGE),
  },
  {
    id: 'z07-audit-last',
    title: 'GET /api/admin/audit-logs, last page (20,000 at 100k)',
    connections: 2,
    path: (c) => `/api/admin/audit-logs?page=${c.auditLastPage}`,
    headers: (c) => key(c.adminKey),
    check: someOf,
  },
  {
    id: 'z08-activity-busy',
    title: 'GET .../activity of the busy server (page 1)',
    connections: 4,
    path: (c) => `/api/client/servers/${c.info.ownerServers[0].identifier}/activity`,
    headers: (c) => key(c.ownerKey),
    check: someOf,
  },
  {
    id: 'z09-activity-typical',
    title: 'GET .../activity of a typical server (page 1)',
    connections: 4,
    path: (c) => `/api/client/servers/${c.info.ownerServers[1].identifier}/activity`,
    headers: (c) => key(c.ownerKey),
    check: someOf,
  },
  {
    id: 'z10-ptero-client',
    title: 'GET /pterodactyl/api/client (ptlc key, owner of 50)',
    connections: 8,
    path: () => '/pterodactyl/api/client',
    headers: (c) => ptero(c.pteroKey),
    check: listOf(50),
    cpuTarget: 1.5,
  },
  {
    id: 'z11-app-servers',
    title: 'GET /api/application/servers (ptla key, page 1)',
    connections: 4,
    path: () => '/api/application/servers?page=1',
    headers: (c) => ptero(c.appKey),
    check: listOf(PER_PAGE),
    cpuTarget: 8,
  },
  {
    id: 'z12-app-external',
    title: 'GET /api/application/servers?filter[external_id]=',
    connections: 4,
    path: (c) => `/api/application/servers?filter%5Bexternal_id%5D=${c.externalId}`,
    headers: (c) => ptero(c.appKey),
    check: listOf(1),
  },
  {
    id: 'z13-wings-boot',
    title: 'GET /api/remote/servers?page=0&per_page=50 (node 1)',
    connections: 2,
    path: () => '/api/remote/servers?page=0&per_page=50',
    headers: (c) => key(c.node),
    check: listOf(50),
    cpuTarget: 5,
  },
  {
    id: 'z14-power',
    title: 'POST /api/client/servers/{id}/power (start)',
    connections: 4,
    method: 'POST',
    body: JSON.stringify({ action: 'start' }),
    path: (c) => `/api/client/servers/${c.info.ownerServers[2].identifier}/power`,
    headers: (c) => ({ ...key(c.ownerKey), 'content-type': 'application/json' }),
    check: () => null,
  },
];

const probe = async (ctx: Ctx, sc: Scenario): Promise<void> => {
  const res = await fetch(`${ctx.panel}${sc.path(ctx)}`, { method: sc.method ?? 'GET', headers: sc.headers(ctx), body: sc.body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  const problem = res.status < 200 || res.status >= 300 ? `answered ${res.status}` : sc.check(body, ctx);
  if (problem) {
    throw new Error(`${sc.id} (${sc.path(ctx)}): ${problem}: ${text.slice(0, 400)}`);
  }
};

/** CPU ms of the database's backends now, by pid. */
const backendCpu = async (db: string): Promise<Map<number, number>> =>
  new Map((await backendPids(db)).map((pid) => [pid, cpuMs(pid) ?? 0] as [number, number]).filter(([pid]) => cpuMs(pid) !== null));

const measure = async (
  driver: LoadDriver,
  panel: PanelProcess,
  sim: ChildProcess | null,
  db: string,
  job: LoadJob,
  warmupSeconds: number,
): Promise<{ result: LoadResult; panelMs: number | null; pgMs: number; otherCores: number | null }> => {
  if (warmupSeconds > 0) {
    await driver.run({ ...job, durationSeconds: warmupSeconds, warmupSeconds: 0 });
    await new Promise((r) => setTimeout(r, 1000));
  }
  const panelBefore = cpuMs(panel.pid);
  const pgBefore = await backendCpu(db);
  const helpers = [sim?.pid, driver.pid];
  const helpersBefore = helpers.map((pid) => cpuMs(pid) ?? 0);
  const machineBefore = machineBusyMs();
  const result = await driver.run({ ...job, warmupSeconds: 0 });
  const machineAfter = machineBusyMs();
  const helpersMs = helpers.reduce((sum: number, pid, i) => sum + Math.max(0, (cpuMs(pid) ?? 0) - helpersBefore[i]), 0);
  const panelAfter = cpuMs(panel.pid);
  const pgAfter = await backendCpu(db);
  // A backend the pool opened during the window counts in full; one it closed is left out (it was idle).
  let pgMs = 0;
  for (const [pid, after] of pgAfter) {
    pgMs += Math.max(0, after - (pgBefore.get(pid) ?? 0));
  }
  const panelMs = panelBefore === null || panelAfter === null ? null : panelAfter - panelBefore;
  // What other sessions' builds and tests used meanwhile: a busy machine slows every figure of the window.
  const otherCores =
    machineBefore === null || machineAfter === null || result.seconds <= 0
      ? null
      : round(Math.max(0, machineAfter - machineBefore - (panelMs ?? 0) - pgMs - helpersMs) / 1000 / result.seconds);
  return { result, panelMs, pgMs, otherCores };
};

const runSize = async (size: Size, shape: Shape, db: string, s: SizesSettings, rows: Map<string, SizeRow>, failures: string[]): Promise<SizesReport['databases'][Size]> => {
  const url = databaseUrl(db);
  const info = await ensureLargeDatabase(PG_ADMIN_URL, url, { rebuild: s.rebuild, shape, log: (m) => s.log(`${size}: ${m}`) });
  s.log(`${size}: ${db} ${info.reused ? 'reused' : 'built'} in ${info.buildSeconds} s: ${JSON.stringify(info.counts)}`);
  const port = await freePort();
  const simPort = await freePort();
  const panelUrl = `http://127.0.0.1:${port}`;
  // Node 1 is the simulator: point it at this run's port.
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`UPDATE node SET daemon_listen = $1, base_url = $2 WHERE id = $3`, [simPort, `http://127.0.0.1:${simPort}`, info.node1.id]);
  } finally {
    await client.end();
  }
  const panel = new PanelProcess({
    port,
    logFile: join(s.workDir, `panel-${size}.log`),
    env: panelEnv({
      NODE_ENV: 'production',
      ...LARGE_PANEL_ENV,
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: s.logLevel,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: panelUrl,
      DATABASE_URL: url,
      DATA_DIR: s.workDir,
    }),
  }).start();
  let sim: ChildProcess | null = null;
  let driver: LoadDriver | null = null;
  try {
    s.log(`${size}: panel up in ${Math.round(await panel.waitHealthy(180_000))} ms`);
    const started = await startSimulator(panelUrl, { tokenId: info.node1.tokenId, token: info.node1.token, port: simPort });
    sim = started.child;
    s.log(`${size}: simulator holds ${started.ready.servers} servers (boot fetch ${Math.round(started.ready.bootMs)} ms)`);

    const adminCookie = await signIn(panelUrl, ADMIN_EMAIL);
    const ownerCookie = await signIn(panelUrl, OWNER_EMAIL);
    const adminKey = await newKey(panelUrl, adminCookie, 'bench sizes admin', ['servers.read', 'users.read', 'nodes.read', 'audit.read']);
    const ownerKey = await newKey(panelUrl, ownerCookie, 'bench sizes owner', []);
    const pteroKey = (await expectApi(201, panelUrl, 'POST', '/api/account/pterodactyl-keys', { cookie: ownerCookie, origin: panelUrl }, { description: 'bench sizes owner' })).body.data.key;
    const appKey = (
      await expectApi(201, panelUrl, 'POST', '/api/admin/pterodactyl-keys', { cookie: adminCookie, origin: panelUrl }, { description: 'bench sizes billing', permissions: { servers: 1 } })
    ).body.data.key;
    const lastPage = async (path: string): Promise<number> =>
      Math.max(1, Number((await expectApi(200, panelUrl, 'GET', `${path}?page=1`, { bearer: adminKey })).body.meta.pagination.totalPages));
    const ctx: Ctx = {
      panel: panelUrl,
      info,
      ownerKey,
      adminKey,
      pteroKey,
      appKey,
      node: `${info.node1.tokenId}.${info.node1.token}`,
      auditLastPage: await lastPage('/api/admin/audit-logs'),
      serverLastPage: await lastPage('/api/admin/servers'),
      externalId: `billing-${Math.round(shape.servers / 2) + 7}`,
    };
    s.log(`${size}: audit log last page ${ctx.auditLastPage}, admin server list last page ${ctx.serverLastPage}`);

    driver = new LoadDriver();
    for (const sc of SCENARIOS.filter((x) => s.selected(x.id))) {
      await probe(ctx, sc);
      panel.truncateLog();
      const job: LoadJob = {
        url: `${panelUrl}${sc.path(ctx)}`,
        paths: sc.paths?.(ctx),
        method: sc.method,
        body: sc.body,
        headers: sc.headers(ctx),
        connections: sc.connections,
        warmupSeconds: 0,
        durationSeconds: s.durationSeconds,
      };
      const { result, panelMs, pgMs, otherCores } = await measure(driver, panel, sim, db, job, s.warmupSeconds);
      const n = result.requests;
      const m: SizeMeasure = {
        connections: sc.connections,
        requests: result.requests,
        rps: result.rps,
        p50Ms: result.latencyMs.p50,
        p99Ms: result.latencyMs.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        panelCpuMsPerReq: panelMs === null || n === 0 ? null : round(panelMs / n, 3),
        postgresCpuMsPerReq: n === 0 ? null : round(pgMs / n, 3),
        otherProcessesCores: otherCores,
        path: sc.path(ctx),
      };
      if (n === 0) {
        failures.push(`${size} ${sc.id}: no request was answered within ${s.durationSeconds} s (--large-duration)`);
      }
      if (m.non2xx || m.errors) {
        failures.push(`${size} ${sc.id}: ${m.non2xx} non-2xx (${JSON.stringify(result.statusCodes)}), ${m.errors} errors; ${panel.problems().join(' / ')}`);
      }
      const row = rows.get(sc.id) ?? { id: sc.id, scenario: sc.title };
      row[size] = m;
      rows.set(sc.id, row);
      s.log(`${size} ${sc.id}: ${m.rps} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ms/req panel ${m.panelCpuMsPerReq} postgres ${m.postgresCpuMsPerReq}; other processes ${m.otherProcessesCores} cores`);
    }
  } finally {
    driver?.stop();
    await stopChild(sim);
    await panel.stop();
  }
  return { name: db, counts: info.counts, reused: info.reused, buildSeconds: info.buildSeconds };
};

const ratio = (a: number | null | undefined, b: number | null | undefined): number | null => (a === null || a === undefined || b === null || b === undefined || b === 0 ? null : round(a / b));

/** The issue's targets: within 1.2x of the 1k p50 at 100k, and the CPU and latency bounds some calls have. */
const targetOf = (sc: Scenario, row: SizeRow): Target | undefined => {
  if (!row.small?.requests || !row.large?.requests) {
    return undefined;
  }
  const parts: { text: string; met: boolean }[] = [{ text: 'p50 ≤ 1.2× 1k', met: row.large.p50Ms <= 1.2 * row.small.p50Ms }];
  if (sc.cpuTarget !== undefined) {
    parts.push({ text: `CPU ≤ ${sc.cpuTarget} ms`, met: row.large.panelCpuMsPerReq !== null && row.large.panelCpuMsPerReq <= sc.cpuTarget });
  }
  if (sc.latencyTargetMs !== undefined) {
    parts.push({ text: `p50 ≤ ${sc.latencyTargetMs} ms`, met: row.large.p50Ms <= sc.latencyTargetMs });
  }
  return { text: parts.map((p) => p.text).join(' / '), met: parts.every((p) => p.met), parts: parts.map((p) => p.met) };
};

export const runSizes = async (s: SizesSettings): Promise<SizesReport> => {
  const rows = new Map<string, SizeRow>();
  const failures: string[] = [];
  const small = await runSize('small', SMALL, SMALL_DB_NAME, s, rows, failures);
  const large = await runSize('large', LARGE, LARGE_NAME, s, rows, failures);
  for (const sc of SCENARIOS) {
    const row = rows.get(sc.id);
    if (row?.small?.requests && row.large?.requests) {
      row.ratio = {
        p50: round(row.large.p50Ms / row.small.p50Ms),
        p99: round(row.large.p99Ms / row.small.p99Ms),
        panelCpu: ratio(row.large.panelCpuMsPerReq, row.small.panelCpuMsPerReq),
        postgresCpu: ratio(row.large.postgresCpuMsPerReq, row.small.postgresCpuMsPerReq),
      };
      row.target = targetOf(sc, row);
    }
  }
  return {
    databases: { small, large },
    settings: { durationSeconds: s.durationSeconds, warmupSeconds: s.warmupSeconds },
    rows: SCENARIOS.map((sc) => rows.get(sc.id)).filter((r): r is SizeRow => r !== undefined),
    failures,
  };
};

const cell = (v: number | null | undefined, d = 1): string => (v === undefined || v === null ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));

/** One line per scenario: p50 / p99, CPU per request of the panel and of PostgreSQL, at 1k and 100k, and the ratios. */
export const formatSizesTable = (rows: SizeRow[]): string => {
  const header = ['scenario', 'conn.', 'req/s 1k / 100k', 'p50 ms 1k / 100k', 'p99 ms 1k / 100k', '× p50 / p99', 'panel CPU ms/req 1k / 100k', 'PG CPU ms/req 1k / 100k', 'other cores 1k / 100k', 'target at 100k', 'result'];
  const pair = (a: number | null | undefined, b: number | null | undefined, d: number): string => `${cell(a, d)} / ${cell(b, d)}`;
  const body = rows.map((r) => [
    r.scenario,
    String(r.large?.connections ?? r.small?.connections ?? '—'),
    pair(r.small?.rps, r.large?.rps, 0),
    pair(r.small?.p50Ms, r.large?.p50Ms, 1),
    pair(r.small?.p99Ms, r.large?.p99Ms, 1),
    pair(r.ratio?.p50, r.ratio?.p99, 1),
    pair(r.small?.panelCpuMsPerReq, r.large?.panelCpuMsPerReq, 2),
    pair(r.small?.postgresCpuMsPerReq, r.large?.postgresCpuMsPerReq, 2),
    pair(r.small?.otherProcessesCores, r.large?.otherProcessesCores, 1),
    r.target?.text ?? '—',
    (r.small?.non2xx ?? 0) + (r.small?.errors ?? 0) + (r.large?.non2xx ?? 0) + (r.large?.errors ?? 0) > 0
      ? 'ERRORS'
      : (r.target?.parts?.map((m) => (m ? 'met' : 'MISSED')).join(' / ') ?? '—'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const left = (i: number): boolean => i === 0 || i === 9 || i === 10;
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (left(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
};
