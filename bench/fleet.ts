/**
 * Several panel processes (`npm run bench -- --fleet`): on the generated database of 100,000 servers
 * (bench/lib/large-seed.ts), the panel as a host runs a fleet of it (test/utils/fleet.ts): PgBouncer in
 * transaction mode before PostgreSQL, Redis, HAProxy before the panels, with one panel and with three.
 *
 * - f01: a server's details (API key, rotating over the owner's 50 servers; each asks the simulated
 *   daemon for its live state), through HAProxy, one process and three. Target: three ≥ 1.5× one.
 * - f03: the owner's server list (50 servers), one process and three: a route whose cost is mostly the
 *   panel's own work, where more processes have more to share.
 * - f05 a burst of sign-ins (argon2 at its production cost), f06 the server list of an owner of 5,000
 *   servers, f07 the admin's server search, f08 the application API's server list (a billing module's
 *   ptla_ key): each with one process and three.
 * - f04: a boot storm: all 1,000 nodes boot at once from one process of simulated nodes (bench/nodes.ts,
 *   each on a port of its own with its own token), as Wings boots: its servers' configurations, its
 *   servers made, the reset call. One process and three. Target: ≥ 1,000 server configurations a second.
 * Each with the CPU it cost per request: the panels, PostgreSQL, HAProxy with PgBouncer, the load
 * generator with the simulator; and how many cores were busy in all.
 * - f02: a schedule storm, one process and three: SCHEDULES schedules of one task each (a console command on one
 *   of the owner's servers) due at the same moment; every task must run exactly once. Reported: seconds
 *   until the last run ended, runs per second, and the most runs each process held at once.
 */
import { hostname } from 'node:os';
import { ChildProcess } from 'node:child_process';
import type { Client } from 'pg';
import Redis from 'ioredis';
import { LoadDriver, NodeSimulators, startSimulator, stopChild } from 'bench/lib/children';
import { ensureLargeDatabase, LARGE, LARGE_APP_KEY, LARGE_DB_NAME, LARGE_PANEL_ENV } from 'bench/lib/large-seed';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppConfigService } from 'src/config/app-config.service';
import { nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { cpuMs, machineBusyMs } from 'bench/lib/panel-process';
import { backendPids, databaseUrl, PG_ADMIN_URL } from 'bench/lib/pg-admin';
import { expectApi } from 'bench/lib/http';
import { ADMIN_EMAIL, newKey, OWNER_EMAIL, PASSWORD, signIn } from 'bench/lib/seed';
import { withAdminClient } from 'test/setup/test-env';
import { Fleet } from 'test/utils/fleet';
import { freePort } from 'test/utils/free-port';

const SCHEDULES = 10_000;
const CONNECTIONS = 32;
const REDIS_URL = `${(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '')}/8`;

interface FleetSettings {
  durationSeconds: number;
  warmupSeconds: number;
  rebuild: boolean;
  selected: (id: string) => boolean;
  log: (m: string) => void;
}

interface LoadMeasure {
  route: string;
  processes: number;
  connections: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /**
   * CPU time per request over the window (user + system, ms): all panel processes, the PostgreSQL
   * backends, HAProxy with PgBouncer, and the load generator with the simulator; and how many of the
   * machine's cores were busy in all.
   */
  cpuMsPerReq: { panels: number; postgres: number; proxies: number; driverAndSim: number };
  busyCores: number | null;
}

interface BootMeasure {
  processes: number;
  nodes: number;
  /** Server configurations the nodes received, and how long until the last node had all of its own. */
  configurations: number;
  seconds: number;
  perSecond: number;
  /** User + system time of all panel processes per configuration. */
  panelCpuMsPerConfiguration: number;
}

interface StormMeasure {
  processes: number;
  schedules: number;
  /** Seconds from the moment they were all due to the end of the last run. */
  seconds: number;
  runsPerSecond: number;
  /** Runs that ran their task once, more than once (must be 0), and not at all (must be 0). */
  once: number;
  twice: number;
  missing: number;
  /** The most runs each process held at once (`claimed_by`, sampled every 0.5 s), largest first. */
  heldAtOnce: number[];
}

export interface FleetReport {
  settings: { durationSeconds: number; warmupSeconds: number; connections: number; schedules: number };
  database: { name: string; counts: Record<string, number> };
  loads: LoadMeasure[];
  /** rps of three processes over one, per route (target ≥ 1.5 on the details route). */
  ratios: Record<string, number | null>;
  storms: StormMeasure[];
  boots: BootMeasure[];
  failures: string[];
}

const round = (v: number, d = 2): number => Number(v.toFixed(d));

/** A connection of its own to the database (test/setup/test-env.ts), for `fn`. */
const withDatabase = <T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> => withAdminClient(fn, url);

export const runFleet = async (s: FleetSettings): Promise<FleetReport> => {
  const url = databaseUrl(LARGE_DB_NAME);
  const info = await ensureLargeDatabase(PG_ADMIN_URL, url, { rebuild: s.rebuild, shape: LARGE, log: (m) => s.log(`fleet: ${m}`) });
  s.log(`fleet: ${LARGE_DB_NAME} ${info.reused ? 'reused' : 'built'}: ${JSON.stringify(info.counts)}`);
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  const report: FleetReport = {
    settings: { durationSeconds: s.durationSeconds, warmupSeconds: s.warmupSeconds, connections: CONNECTIONS, schedules: SCHEDULES },
    database: { name: LARGE_DB_NAME, counts: info.counts },
    loads: [],
    ratios: {},
    storms: [],
    boots: [],
    failures: [],
  };
  const driver = new LoadDriver();
  const giveBack = await lendServers(url);
  try {
    for (const processes of [1, 3]) {
      const fleet = await Fleet.start({
        database: LARGE_DB_NAME,
        directUrl: url,
        redisUrl: REDIS_URL,
        panels: processes,
        env: { ...LARGE_PANEL_ENV, RATE_LIMIT_ENABLED: 'false', DB_POOL_MAX: '10', SCHEDULER_STALE_CLAIM_SECONDS: '60' },
      });
      let sim: ChildProcess | null = null;
      try {
        // Node 1 is the simulator, on a port taken now that the fleet holds its own (the panels hear the change).
        const simPort = await freePort();
        await withDatabase(url, (c) => c.query(`UPDATE node SET daemon_listen = $1, base_url = $2 WHERE id = $3`, [simPort, `http://127.0.0.1:${simPort}`, info.node1.id]));
        sim = (await startSimulator(fleet.url, { tokenId: info.node1.tokenId, token: info.node1.token, port: simPort })).child;
        const keys = await credentialsFor(fleet.url, processes);
        for (const route of ROUTES.filter((r) => s.selected(r.id))) {
          const m = await measureLoad(driver, fleet, sim, route, keys, info.ownerServers, s);
          report.loads.push(m);
          s.log(`fleet ${route.id}, ${processes} process(es): ${m.rps} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ms/req ${JSON.stringify(m.cpuMsPerReq)}, ${m.busyCores} cores busy`);
        }
        if (s.selected('f04')) {
          const boot = await bootStorm(url, fleet, simPort);
          report.boots.push(boot);
          s.log(`fleet f04, ${processes} process(es): ${boot.nodes} nodes booted at once: ${boot.configurations} configurations in ${boot.seconds} s (${boot.perSecond}/s)`);
          if (boot.perSecond < 1_000) {
            report.failures.push(`f04 with ${processes} process(es): ${boot.perSecond} server configurations a second (target ≥ 1,000)`);
          }
        }
        if (s.selected('f02')) {
          const st = await scheduleStorm(url, fleet, info.ownerServers, s);
          report.storms.push(st);
          s.log(`fleet f02, ${processes} process(es): ${st.schedules} runs in ${st.seconds} s (${st.runsPerSecond}/s), once ${st.once}, twice ${st.twice}, missing ${st.missing}, held at once per process ${st.heldAtOnce.join('/')}`);
          if (st.twice > 0 || st.missing > 0) {
            report.failures.push(`f02 with ${processes} process(es): ${st.twice} runs ran twice, ${st.missing} did not run`);
          }
        }
      } finally {
        await stopChild(sim);
        await fleet.stop();
      }
    }
  } finally {
    driver.stop();
    await giveBack();
  }
  for (const route of ROUTES) {
    const [one, three] = [1, 3].map((n) => report.loads.find((m) => m.route === route.id && m.processes === n));
    if (one && three) {
      report.ratios[route.id] = one.rps > 0 ? round(three.rps / one.rps) : null;
    }
  }
  return report;
};

/** The credentials the routes are called with, made through the fleet for each run. */
interface Credentials {
  /** The owner of 50 servers (owner@bench.test), a Hatchery key. */
  owner: string;
  /** An owner of BIG_OWNER_SERVERS servers (lent for the run: lendServers). */
  bigOwner: string;
  /** The administrator, a key that reads servers. */
  admin: string;
  /** A Pterodactyl application key (ptla_), as a billing module holds. */
  application: string;
}

interface Route {
  id: string;
  title: string;
  connections: number;
  paths: (servers: { identifier: string }[]) => string[];
  headers: (keys: Credentials) => Record<string, string>;
  method?: 'POST';
  body?: string;
}

const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** A user the bench lends this many servers for the dashboard of a big owner (f06). */
const BIG_OWNER_EMAIL = 'player00001@bench.test';
const BIG_OWNER_SERVERS = 5_000;

/** What the fleet is loaded with, each with one process and with three. */
const ROUTES: Route[] = [
  { id: 'f01', title: 'GET /api/client/servers/{id} (API key)', connections: CONNECTIONS, paths: (servers) => servers.map((server) => `/api/client/servers/${server.identifier}`), headers: (k) => bearer(k.owner) },
  { id: 'f03', title: 'GET /api/client/servers (owner of 50, API key)', connections: 8, paths: () => ['/api/client/servers'], headers: (k) => bearer(k.owner) },
  { id: 'f06', title: `GET /api/client/servers (owner of ${BIG_OWNER_SERVERS.toLocaleString('en-US')}, page 1)`, connections: 8, paths: () => ['/api/client/servers'], headers: (k) => bearer(k.bigOwner) },
  { id: 'f07', title: 'GET /api/admin/servers?search=rver 77', connections: 4, paths: () => ['/api/admin/servers?search=rver%2077'], headers: (k) => bearer(k.admin) },
  {
    id: 'f08',
    title: 'GET /api/application/servers (ptla key, page 1)',
    connections: 4,
    paths: () => ['/api/application/servers'],
    headers: (k) => ({ ...bearer(k.application), accept: 'Application/vnd.pterodactyl.v1+json' }),
  },
  {
    id: 'f05',
    title: 'POST /api/auth/sign-in/email (a burst of sign-ins)',
    connections: 8,
    paths: () => ['/api/auth/sign-in/email'],
    headers: () => ({ 'content-type': 'application/json' }),
    method: 'POST',
    body: JSON.stringify({ email: OWNER_EMAIL, password: PASSWORD }),
  },
];

const credentialsFor = async (base: string, processes: number): Promise<Credentials> => {
  const adminCookie = await signIn(base, ADMIN_EMAIL);
  return {
    owner: await newKey(base, await signIn(base, OWNER_EMAIL), `bench fleet ${processes}`, []),
    bigOwner: await newKey(base, await signIn(base, BIG_OWNER_EMAIL), `bench fleet ${processes}`, []),
    admin: await newKey(base, adminCookie, `bench fleet ${processes}`, ['servers.read']),
    application: (await expectApi(201, base, 'POST', '/api/admin/pterodactyl-keys', { cookie: adminCookie, origin: base }, { description: `bench fleet ${processes}`, permissions: { servers: 1 } }))
      .body.data.key as string,
  };
};

/**
 * Gives the big owner BIG_OWNER_SERVERS servers of other players for the run (none of the owner's 50, so
 * the other rows keep their figures); the returned function gives them back.
 */
const lendServers = async (url: string): Promise<() => Promise<void>> =>
  withDatabase(url, async (c) => {
    const lent = await c.query<{ id: string; owner_id: string }>(
      `SELECT s.id, s.owner_id FROM server s JOIN "user" u ON u.id = s.owner_id WHERE u.email <> $1 AND u.email <> $2 ORDER BY s.id DESC LIMIT $3`,
      [OWNER_EMAIL, BIG_OWNER_EMAIL, BIG_OWNER_SERVERS],
    );
    await c.query(`UPDATE server SET owner_id = (SELECT id FROM "user" WHERE email = $1) WHERE id = ANY($2::bigint[])`, [BIG_OWNER_EMAIL, lent.rows.map((r) => r.id)]);
    return () =>
      withDatabase(url, async (back) => {
        await back.query(`UPDATE server s SET owner_id = l.owner_id FROM unnest($1::bigint[], $2::bigint[]) AS l(id, owner_id) WHERE s.id = l.id`, [
          lent.rows.map((r) => r.id),
          lent.rows.map((r) => r.owner_id),
        ]);
      });
  });

const cpuOf = (pids: (number | undefined)[]): number => pids.reduce((sum: number, pid) => sum + (cpuMs(pid) ?? 0), 0);

const measureLoad = async (driver: LoadDriver, fleet: Fleet, sim: ChildProcess | null, route: Route, keys: Credentials, servers: { identifier: string }[], s: FleetSettings): Promise<LoadMeasure> => {
  const paths = route.paths(servers);
  const job = {
    url: `${fleet.url}${paths[0]}`,
    paths,
    headers: route.headers(keys),
    method: route.method,
    body: route.body,
    connections: route.connections,
    warmupSeconds: 0,
    durationSeconds: s.durationSeconds,
  };
  await driver.run({ ...job, durationSeconds: s.warmupSeconds });
  const groups = {
    panels: fleet.panels.map((p) => p.child.proc.pid),
    proxies: fleet.proxyPids,
    driverAndSim: [driver.pid, sim?.pid],
  };
  const pgBefore = new Map((await backendPids(LARGE_DB_NAME)).map((pid) => [pid, cpuMs(pid) ?? 0]));
  const before = { panels: cpuOf(groups.panels), proxies: cpuOf(groups.proxies), driverAndSim: cpuOf(groups.driverAndSim) };
  const machineBefore = machineBusyMs();
  const result = await driver.run(job);
  const machineAfter = machineBusyMs();
  let postgres = 0;
  for (const pid of await backendPids(LARGE_DB_NAME)) {
    postgres += Math.max(0, (cpuMs(pid) ?? 0) - (pgBefore.get(pid) ?? 0));
  }
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${route.id} with ${fleet.panels.length} process(es): ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodes)}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const perReq = (ms: number) => (result.requests > 0 ? round(ms / result.requests, 3) : 0);
  return {
    route: route.id,
    processes: fleet.panels.length,
    connections: route.connections,
    rps: result.rps,
    p50Ms: result.latencyMs.p50,
    p99Ms: result.latencyMs.p99,
    requests: result.requests,
    cpuMsPerReq: {
      panels: perReq(cpuOf(groups.panels) - before.panels),
      postgres: perReq(postgres),
      proxies: perReq(cpuOf(groups.proxies) - before.proxies),
      driverAndSim: perReq(cpuOf(groups.driverAndSim) - before.driverAndSim),
    },
    busyCores: machineBefore === null || machineAfter === null || result.seconds <= 0 ? null : round((machineAfter - machineBefore) / 1000 / result.seconds),
  };
};

/**
 * Every node boots at once, as Wings does at start (docs/wings.md, boot order), from one process of
 * simulated nodes (bench/nodes.ts), each on a port of its own with its own token: its server list
 * (`GET /api/remote/servers?page=0&per_page=50`, then pages 2 to last_page together), its servers made
 * from the configurations, then `POST /api/remote/servers/reset`. The nodes' rows point at those
 * ports for the storm (the panels hear the change), node 1's then back at the bench's simulator.
 * Tokens are opened with LARGE_APP_KEY.
 */
const bootStorm = async (url: string, fleet: Fleet, node1Port: number): Promise<BootMeasure> => {
  const box = new SecretBox(AppConfigService.fromEnv({ DATABASE_URL: url, APP_KEY: LARGE_APP_KEY, NODE_ENV: 'production' }));
  // Where the nodes are, put back after the storm (the database is kept for the next runs; node 1 at the bench's simulator).
  const addresses = await withDatabase(url, async (c) =>
    (
      await c.query<{ id: string; uuid: string; token_identifier: string; token_secret: string; fqdn: string; scheme: string; daemon_listen: number; base_url: string }>(
        `SELECT id, uuid, token_identifier, token_secret, fqdn, scheme, daemon_listen, base_url FROM node ORDER BY id`,
      )
    ).rows,
  );
  const nodes = addresses.map((n) => ({ id: String(n.id), tokenId: n.token_identifier, token: box.open(n.token_secret, nodeTokenContext({ uuid: n.uuid })) }));
  const simulators = await NodeSimulators.start(fleet.url, nodes);
  try {
    await withDatabase(url, (c) =>
      c.query(
        `UPDATE node SET fqdn = '127.0.0.1', scheme = 'http', daemon_listen = p.port::int, base_url = 'http://127.0.0.1:' || p.port
         FROM jsonb_each_text($1::jsonb) AS p(id, port) WHERE node.id = p.id::bigint`,
        [JSON.stringify(simulators.ports)],
      ),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const pids = fleet.panels.map((p) => p.child.proc.pid);
    const cpuBefore = cpuOf(pids);
    const booted = await simulators.boot();
    const cpu = cpuOf(pids) - cpuBefore;
    if (booted.failed.length > 0) {
      throw new Error(`f04: ${booted.failed.length} of ${booted.nodes} nodes failed to boot, the first: ${booted.failed[0].error}`);
    }
    return {
      processes: fleet.panels.length,
      nodes: booted.nodes,
      configurations: booted.configurations,
      seconds: round(booted.seconds, 1),
      perSecond: round(booted.configurations / booted.seconds, 0),
      panelCpuMsPerConfiguration: round(cpu / booted.configurations, 3),
    };
  } finally {
    await withDatabase(url, (c) =>
      c.query(
        `UPDATE node SET fqdn = a.fqdn, scheme = a.scheme, daemon_listen = CASE WHEN node.id = $2::bigint THEN $3::int ELSE a.daemon_listen END,
           base_url = CASE WHEN node.id = $2::bigint THEN 'http://127.0.0.1:' || $3::int ELSE a.base_url END
         FROM jsonb_to_recordset($1::jsonb) AS a(id bigint, fqdn text, scheme text, daemon_listen int, base_url text) WHERE node.id = a.id`,
        [JSON.stringify(addresses.map(({ id, fqdn, scheme, daemon_listen, base_url }) => ({ id, fqdn, scheme, daemon_listen, base_url }))), nodes[0].id, node1Port],
      ),
    );
    await simulators.stop();
  }
};

/** SCHEDULES schedules of one command each, due at once on three processes; waits until every run has ended. */
const scheduleStorm = async (url: string, fleet: Fleet, servers: { id: string }[], s: FleetSettings): Promise<StormMeasure> =>
  withDatabase(url, async (c) => {
    await c.query(`DELETE FROM schedule WHERE name LIKE 'bench storm %'`);
    const made = await c.query<{ id: string }>(
      `INSERT INTO schedule (server_id, name, cron_minute, cron_hour, cron_day_of_month, cron_month, cron_day_of_week, next_run_at)
       SELECT ($1::bigint[])[1 + n % array_length($1::bigint[], 1)], 'bench storm ' || n, '0', '0', '1', '1', '*', now() + interval '1 hour'
       FROM generate_series(1, $2) n RETURNING id`,
      [servers.map((server) => server.id), SCHEDULES],
    );
    await c.query(`INSERT INTO schedule_task (schedule_id, sequence_id, action, payload) SELECT id, 1, 'command', 'say bench storm' FROM unnest($1::bigint[]) AS s(id)`, [
      made.rows.map((r) => r.id),
    ]);
    const due = (await c.query<{ at: Date }>(`UPDATE schedule SET next_run_at = now() WHERE name LIKE 'bench storm %' RETURNING now() AS at`)).rows[0].at;
    const started = Date.now();
    const spread = new Map<string, number>();
    const deadline = started + 600_000;
    let finished = 0;
    while (finished < SCHEDULES && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      for (const row of (await c.query<{ by: string; n: number }>(`SELECT claimed_by AS by, count(*)::int AS n FROM schedule WHERE name LIKE 'bench storm %' AND is_processing GROUP BY 1`)).rows) {
        spread.set(row.by, Math.max(spread.get(row.by) ?? 0, row.n));
      }
      finished = (
        await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM schedule WHERE name LIKE 'bench storm %' AND last_run_at >= $1 AND NOT is_processing`,
          [due],
        )
      ).rows[0].n;
    }
    const seconds = (Date.now() - started) / 1000;
    const tasks = await c.query<{ runs: number; n: number }>(
      `SELECT runs, count(*)::int AS n FROM (
         SELECT s.id, count(a.id)::int AS runs FROM schedule s
         LEFT JOIN server_activity a ON a.server_id = s.server_id AND a.created_at >= $1 AND a.event IN ('server.schedule.task.success', 'server.schedule.task.fail') AND a.metadata->>'schedule_id' = s.id::text
         WHERE s.name LIKE 'bench storm %' GROUP BY s.id) per GROUP BY runs`,
      [due],
    );
    const count = (runs: (n: number) => boolean) => tasks.rows.filter((r) => runs(r.runs)).reduce((sum, r) => sum + r.n, 0);
    // The database is kept for the next run (and the --large rows): the storm leaves nothing behind.
    await c.query(`DELETE FROM server_activity WHERE created_at >= $1 AND event LIKE 'server.schedule.%' AND metadata->>'schedule_id' = ANY($2::text[])`, [due, made.rows.map((r) => r.id)]);
    await c.query(`DELETE FROM schedule WHERE name LIKE 'bench storm %'`);
    s.log(`fleet f02: the processes were ${fleet.panels.map((p) => `${hostname()}:${p.child.proc.pid}`).join(', ')}`);
    return {
      processes: fleet.panels.length,
      schedules: SCHEDULES,
      seconds: round(seconds, 1),
      runsPerSecond: round(SCHEDULES / seconds, 0),
      once: count((n) => n === 1),
      twice: count((n) => n > 1),
      missing: count((n) => n === 0),
      heldAtOnce: [...spread.values()].sort((a, b) => b - a),
    };
  });

/** The fleet's rows as a table. */
export const formatFleet = (r: FleetReport): string => {
  const lines = [
    '| scenario | processes | conn. | req/s | p50 ms | p99 ms | CPU ms/req: panels / PostgreSQL / HAProxy+PgBouncer / load+sim | cores busy |',
    '|:--|--:|--:|--:|--:|--:|:--|--:|',
  ];
  for (const m of r.loads) {
    const c = m.cpuMsPerReq;
    const title = ROUTES.find((route) => route.id === m.route)?.title ?? m.route;
    lines.push(`| ${m.route} ${title} | ${m.processes} | ${m.connections} | ${m.rps.toLocaleString('en-US')} | ${m.p50Ms} | ${m.p99Ms} | ${c.panels} / ${c.postgres} / ${c.proxies} / ${c.driverAndSim} | ${m.busyCores ?? '—'} |`);
  }
  for (const [route, ratio] of Object.entries(r.ratios)) {
    lines.push(`\n${route}: three processes / one = ${ratio ?? '—'}×${route === 'f01' ? ` (target ≥ 1.5×: ${ratio !== null && ratio >= 1.5 ? 'met' : 'MISSED'})` : ''}`);
  }
  for (const b of r.boots) {
    lines.push(
      `f04: ${b.nodes.toLocaleString('en-US')} nodes booting at once on ${b.processes} process(es): ${b.configurations.toLocaleString('en-US')} server configurations in ${b.seconds} s ` +
        `(${b.perSecond.toLocaleString('en-US')}/s; target ≥ 1,000/s: ${b.perSecond >= 1_000 ? 'met' : 'MISSED'}); panel CPU ${b.panelCpuMsPerConfiguration} ms per configuration`,
    );
  }
  for (const st of r.storms) {
    lines.push(
      `f02: ${st.schedules.toLocaleString('en-US')} schedules due at once on ${st.processes} process(es): all ended in ${st.seconds} s (${st.runsPerSecond}/s); ` +
        `tasks run once ${st.once.toLocaleString('en-US')}, twice or more ${st.twice}, never ${st.missing} (target: every task once: ${st.twice === 0 && st.missing === 0 ? 'met' : 'MISSED'}); ` +
        `most runs held at once per process ${st.heldAtOnce.join(' / ')}`,
    );
  }
  return lines.join('\n');
};
