import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { JOB_SCHEMA } from 'src/common/background/job-queue';
import { MIGRATIONS } from 'src/database/migrations';
import { isCi, withAdminClient } from 'test/setup/test-env';
import { createTestDatabase } from 'test/utils/test-db';
import { checkHaproxyConfig, Fleet, fleetAvailable, shippedHaproxyPolicy, type PanelInstance } from 'test/utils/fleet';
import { EGG_FIXTURES_DIR } from 'test/utils/fixtures';
import { PanelApi, type Session } from 'test/utils/panel-api';
import { WingsSimulator } from 'test/wings-sim/simulator';
import type { RecordedRequest } from 'test/wings-sim/types';
import { freePort } from 'test/utils/free-port';
import { LiveClient } from 'test/utils/live-client';
import { PANEL_ROOT } from 'test/utils/panel-process';

// Three panel processes as a host runs them (test/utils/fleet.ts): PgBouncer in transaction mode in
// front of PostgreSQL, Redis, HAProxy in front of the panels.

const REDIS_BASE = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A Redis database of their own: the rate-limit counters of the other test files never meet these.
const REDIS_URL = `${REDIS_BASE.replace(/\/\d*$/, '')}/7`;
const ADMIN = { email: 'fleet-admin@hatchery.test', password: 'fleet-admin-password' };
/** The queues every process works (src/common/background/job-queue.ts and its users). */
const BACKGROUND_QUEUES = ['backups.abort-stale-uploads', 'logs.retention', 'transfers.sweep', 'usage.sample', 'webhooks.deliver', 'webhooks.delivery'];

const redisReady = async (): Promise<boolean> => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  try {
    await redis.connect();
    await redis.flushdb();
    return true;
  } catch (e) {
    if (isCi()) {
      throw new Error(`Redis at ${REDIS_URL} is required in CI: ${(e as Error).message}`);
    }
    process.stdout.write(`[hatchery tests] skipping the fleet tests: Redis at ${REDIS_URL} is not reachable\n`);
    return false;
  } finally {
    redis.disconnect();
  }
};

/** Polls `probe` every 20 ms; resolves to the milliseconds it took to answer true, or rejects after `limitMs`. */
const within = async (limitMs: number, what: string, probe: () => boolean | Promise<boolean>): Promise<number> => {
  const started = Date.now();
  while (Date.now() - started <= limitMs) {
    if (await probe()) {
      return Date.now() - started;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what}: not within ${limitMs} ms`);
};

const status = async (url: string, session: Session): Promise<number> => (await fetch(url, { headers: { cookie: session.cookie } })).status;

const run = fleetAvailable() ? describe : describe.skip;

run('three panel processes behind HAProxy, over PgBouncer in transaction mode, PostgreSQL and Redis', () => {
  let fleet: Fleet;
  let database: { url: string; drop: () => Promise<void> };
  let name: string;
  let sim: WingsSimulator | undefined;
  let api: PanelApi;
  let admin: Session;
  let ready = false;
  /** A user, their server on the simulator, and the node's token. */
  let owner: { email: string; username: string; password: string; id: string };
  /** Two sessions of the owner (an account may sign in three times in 10 s: they are made once). */
  let kept: Session;
  let revoked: Session;
  let server: { id: string; uuid: string; identifier: string };
  let nodeToken: string;

  beforeAll(async () => {
    if (!(await redisReady())) {
      return;
    }
    database = await createTestDatabase({ empty: true });
    name = new URL(database.url).pathname.slice(1);
    fleet = await Fleet.start({
      database: name,
      directUrl: database.url,
      redisUrl: REDIS_URL,
      panels: 3,
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_USERNAME: 'fleetadmin' },
    });
    api = new PanelApi(fleet.url);
    admin = await api.signIn(ADMIN.email, ADMIN.password);

    // A node on the Wings simulator, reached by the panels through HAProxy, and a server on it.
    const key = await api.request<{ key: string }>('POST', '/api/account/api-keys', { session: admin, body: { name: 'fleet', permissions: ['nodes.read'] } });
    const location = await api.request<{ id: string }>('POST', '/api/admin/locations', { session: admin, body: { short: 'fleet', long: 'Fleet' } });
    const simPort = await freePort();
    const node = await api.request<{ id: string }>('POST', '/api/admin/nodes', {
      session: admin,
      body: { name: 'sim', fqdn: '127.0.0.1', scheme: 'http', daemonListen: simPort, memory: 16384, disk: 100000, locationId: location.id },
    });
    await api.request('POST', `/api/admin/nodes/${node.id}/allocations`, { session: admin, body: { ip: '0.0.0.0', ports: ['25565-25570'] } });
    const config = await api.request<{ token_id: string; token: string }>('GET', `/api/admin/daemon/nodes/${node.id}/configuration`, { apiKey: key.key });
    nodeToken = `${config.token_id}.${config.token}`;
    sim = new WingsSimulator({ panelUrl: fleet.url, tokenId: config.token_id, token: config.token, port: simPort, allowedOrigins: [fleet.url], timing: { lineDelayMs: 5, statsIntervalMs: 1000, installDurationMs: 20 } });
    await sim.start();
    const nest = await api.request<{ id: string }>('POST', '/api/admin/nests', { session: admin, body: { name: 'Minecraft' } });
    const paper: unknown = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
    const egg = await api.request<{ id: string }>('POST', `/api/admin/eggs/import?nestId=${nest.id}`, { session: admin, body: paper });
    const suffix = randomBytes(3).toString('hex');
    const made = { email: `owner-${suffix}@hatchery.test`, username: `owner_${suffix}`, password: `password-${suffix}` };
    const user = await api.request<{ id: string }>('POST', '/api/admin/users', { session: admin, body: { ...made, name: 'Owner' } });
    owner = { ...made, id: String(user.id) };
    server = await api.request('POST', '/api/admin/servers', {
      session: admin,
      body: {
        name: 'Fleet survival',
        owner_id: owner.id,
        node_id: node.id,
        egg_id: egg.id,
        memory: 1024,
        disk: 1024,
        cpu: 100,
        environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
      },
    });
    kept = await api.signIn(owner.email, owner.password);
    revoked = await api.signIn(owner.email, owner.password);
    ready = true;
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
    await fleet?.stop();
    await database?.drop();
  });

  /** Each panel directly, not through HAProxy. */
  const each = (): PanelInstance[] => fleet.panels;
  /** One panel's API, as the browser on APP_URL (HAProxy) would send it. */
  const on = (panel: PanelInstance): PanelApi => new PanelApi(panel.url, fleet.url);

  it('should boot on an empty database at once: the migrations applied once, under the lock on PostgreSQL itself, one first administrator', async () => {
    expect(ready).toBe(true);
    await withAdminClient(async (c) => {
      expect((await c.query(`SELECT count(*)::int AS n FROM migrations`)).rows[0].n).toBe(MIGRATIONS.length);
      expect((await c.query(`SELECT count(*)::int AS n FROM "user" WHERE admin`)).rows[0].n).toBe(1);
      // Each panel listens for changes on a connection of its own to PostgreSQL (the pooler cannot carry LISTEN).
      const listeners = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'hatchery-changes'`, [name]);
      expect(listeners.rows[0].n).toBe(3);
    }, database.url);
    const served = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      served.add((await fetch(`${fleet.url}/api/health`)).headers.get('x-served-by') ?? '');
    }
    expect([...served].sort()).toEqual(['p1', 'p2', 'p3']);
  });

  it('should drain the background work from one PostgreSQL queue in every process, each interval once for the fleet', async () => {
    const pids = each().map((panel) => panel.child.proc.pid);
    await withAdminClient(async (c) => {
      // pg-boss's schema made once (three processes started it at once), each process working every queue.
      expect((await c.query(`SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.version`)).rows[0].n).toBe(1);
      const workers = async () =>
        (await c.query<{ pid: number; queues: string[] }>(
          `SELECT pid, ARRAY(SELECT DISTINCT w->>'queue' FROM jsonb_array_elements(workers) w ORDER BY 1) AS queues
           FROM ${JOB_SCHEMA}.instance WHERE stopped_on IS NULL AND host = $1 AND name = 'hatchery-panel' ORDER BY pid`,
          [hostname()],
        )).rows;
      // (pg-boss's registry, refreshed every 10 s)
      await within(25_000, 'each process works every queue', async () => {
        const rows = await workers();
        return rows.length === 3 && rows.every((r) => BACKGROUND_QUEUES.every((q) => r.queues.includes(q)));
      });
      expect((await workers()).map((r) => r.pid).sort()).toEqual([...pids].sort());
      // The transfer sweep is due every second (SCHEDULER_TICK_SECONDS = 1): each process offers it, once a slot is kept.
      await within(15_000, 'five sweeps', async () => (await c.query(`SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.job WHERE name = 'transfers.sweep' AND state = 'completed'`)).rows[0].n >= 5);
      const swept = (await c.query<{ slot: string; by: string }>(`SELECT singleton_on::text AS slot, output->>'ranBy' AS by FROM ${JOB_SCHEMA}.job WHERE name = 'transfers.sweep' AND state = 'completed'`)).rows;
      expect(new Set(swept.map((j) => j.slot)).size).toBe(swept.length);
      expect(swept.every((j) => pids.some((pid) => j.by === `${hostname()}:${pid}`))).toBe(true);
    }, database.url);
    }, 45_000);

  it('should serve the reads it prepares on a direct connection as plain statements through the pooler', async () => {
    // Named prepared statements live on one server session; PgBouncer in transaction mode hands the next
    // transaction to another one ("prepared statement does not exist"). Many rounds, every process.
    const pages: { path: string; headers: Record<string, string> }[] = [
      { path: '/api/client/servers', headers: { cookie: kept.cookie } },
      { path: '/api/remote/servers?page=1&per_page=50', headers: { authorization: `Bearer ${nodeToken}` } },
    ];
    const answers: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      for (const page of pages) {
        const res = await fetch(`${fleet.url}${page.path}`, { headers: page.headers });
        answers.push(`${page.path} ${res.status}${res.status === 200 ? '' : ` ${await res.text()}`}`);
      }
    }
    expect(answers.filter((a) => !a.endsWith(' 200'))).toEqual([]);
  });

  it('should refuse a session revoked through one process on every process within a second', async () => {
    // Every process has the session in its cache.
    for (const panel of each()) {
      expect(await status(`${panel.url}/api/account`, revoked)).toBe(200);
    }
    const sessions = await on(each()[0]).request<{ id: string; current: boolean }[]>('GET', '/api/account/sessions', { session: revoked });
    const id = sessions.find((s) => s.current)!.id;
    await on(each()[1]).request('DELETE', `/api/account/sessions/${id}`, { session: kept, expect: 204 });
    const took = await Promise.all(each().map((panel) => within(1_000, `${panel.name} refuses the revoked session`, async () => (await status(`${panel.url}/api/account`, revoked)) === 401)));
    expect(took).toHaveLength(3);
    for (const panel of each()) {
      expect(await status(`${panel.url}/api/account`, kept)).toBe(200);
    }
  });

  it('should refuse an API key revoked through one process on every process within a second', async () => {
    const made = await on(each()[0]).request<{ identifier: string; key: string }>('POST', '/api/account/api-keys', { session: kept, body: { name: 'fleet key', permissions: [] } });
    const withKey = async (panel: PanelInstance) => (await fetch(`${panel.url}/api/account`, { headers: { authorization: `Bearer ${made.key}` } })).status;
    // Every process has the key in its cache.
    for (const panel of each()) {
      expect(await withKey(panel)).toBe(200);
    }
    await on(each()[1]).request('DELETE', `/api/account/api-keys/${made.identifier}`, { session: kept, expect: 204 });
    await Promise.all(each().map((panel) => within(1_000, `${panel.name} refuses the revoked key`, async () => (await withKey(panel)) === 401)));
  });

  it('should show a server suspended through one process as suspended on every process within a second', async () => {
    const session = kept;
    const statusOn = async (panel: PanelInstance) => (await on(panel).request<{ status: string | null }>('GET', `/api/client/servers/${server.uuid}`, { session })).status;
    for (const panel of each()) {
      expect(await statusOn(panel)).not.toBe('suspended');
    }
    await on(each()[2]).request('POST', `/api/admin/servers/${server.id}/suspend`, { session: admin });
    await Promise.all(each().map((panel) => within(1_000, `${panel.name} shows the suspension`, async () => (await statusOn(panel)) === 'suspended')));
    await on(each()[0]).request('POST', `/api/admin/servers/${server.id}/unsuspend`, { session: admin });
    await Promise.all(each().map((panel) => within(1_000, `${panel.name} shows the unsuspension`, async () => (await statusOn(panel)) !== 'suspended')));
  });

  it('should ask each node for its servers once per interval for the whole fleet, and give every process the answer', async () => {
    // A live-status socket on each process, all watching the server (LIVE_STATUS_INTERVAL_MS is 500 here).
    const clients = await Promise.all(each().map((panel) => LiveClient.connect(`${panel.url.replace('http', 'ws')}/api/ws`, { Cookie: kept.cookie, Origin: fleet.url })));
    try {
      for (const client of clients) {
        expect(await client.subscribe([server.uuid])).toEqual([server.uuid]);
        await client.next((f) => f.event === 'resources');
      }
      const polls = () => sim!.requests.filter((r) => r.method === 'GET' && r.path === '/api/servers').length;
      const frames = clients.map((c) => c.frames.length);
      const before = polls();
      const started = Date.now();
      await new Promise((r) => setTimeout(r, 3_000));
      const intervals = (Date.now() - started) / 500;
      const asked = polls() - before;
      // Once per interval (a lease may end a moment before a poll: one more now and then), not once per process.
      expect(asked).toBeGreaterThanOrEqual(Math.floor(intervals) - 1);
      expect(asked).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
      for (const [i, client] of clients.entries()) {
        const received = client.frames.slice(frames[i]).filter((f) => f.event === 'resources');
        expect(received.length).toBeGreaterThanOrEqual(Math.floor(intervals) - 1);
        expect(Object.keys(received.at(-1)!.data as object)).toEqual([server.uuid]);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('should count sign-in and SFTP attempts once for the whole fleet, whichever process HAProxy picks', async () => {
    // Guesses at an account of their own: they use up its sign-in budget.
    const suffix = randomBytes(3).toString('hex');
    const victim = { email: `victim-${suffix}@hatchery.test`, username: `victim_${suffix}`, password: `password-${suffix}` };
    await api.request('POST', '/api/admin/users', { session: admin, body: { ...victim, name: 'Victim' } });
    const ip = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    const servedBy = new Set<string>();
    const signInAttempt = async () => {
      const res = await fetch(`${fleet.url}/api/auth/sign-in/username`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: fleet.url, 'x-forwarded-for': ip },
        body: JSON.stringify({ username: victim.username, password: 'a wrong guess' }),
      });
      servedBy.add(res.headers.get('x-served-by') ?? '');
      return res.status;
    };
    const attempts: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      attempts.push(await signInAttempt());
    }
    expect(servedBy.size).toBe(3);
    expect(attempts).toEqual([401, 401, 401, 401, 401, 429]);

    const sftpIp = `${ip}:40000`;
    const sftp = async () =>
      (
        await fetch(`${fleet.url}/api/remote/sftp/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${nodeToken}` },
          body: JSON.stringify({ type: 'password', username: `${victim.username}.${server.identifier}`, password: 'guess', ip: sftpIp, session_id: 'c2Vzc2lvbg==', client_version: 'U1NILTIuMA==' }),
        })
      ).status;
    const sftpAttempts: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      sftpAttempts.push(await sftp());
    }
    expect(sftpAttempts).toEqual([403, 403, 403, 403, 403, 429]);
  });

  it('should run every task of a schedule storm exactly once when a process holding runs is killed (SIGKILL) mid-storm', async () => {
    const STORM = 60;
    await on(each()[0]).request('POST', `/api/client/servers/${server.uuid}/power`, { session: kept, body: { action: 'start' } });
    await within(10_000, 'the server runs', () => sim!.servers.get(server.uuid)?.state === 'running');
    const commands = (from: number) =>
      sim!.requests
        .slice(from)
        .filter((r) => r.method === 'POST' && r.path === `/api/servers/${server.uuid}/commands`)
        .flatMap((r) => (JSON.parse(r.body ?? '{}') as { commands: string[] }).commands);
    const from = sim!.requests.length;
    // STORM schedules of two tasks each, the second 3 s after the first, all due at once.
    await withAdminClient(async (c) => {
      const made = await c.query<{ id: string }>(
        `INSERT INTO schedule (server_id, name, cron_minute, cron_hour, cron_day_of_month, cron_month, cron_day_of_week, next_run_at)
         SELECT $1, 'storm ' || n, '0', '0', '1', '1', '*', now() + interval '1 hour' FROM generate_series(1, $2) n RETURNING id`,
        [server.id, STORM],
      );
      await c.query(
        `INSERT INTO schedule_task (schedule_id, sequence_id, action, payload, time_offset)
         SELECT s.id, t.seq, 'command', 'say storm ' || s.id || ' task ' || t.seq, CASE t.seq WHEN 1 THEN 0 ELSE 3 END
         FROM unnest($1::bigint[]) AS s(id) CROSS JOIN (VALUES (1), (2)) AS t(seq)`,
        [made.rows.map((r) => r.id)],
      );
      await c.query(`UPDATE schedule SET next_run_at = now() WHERE name LIKE 'storm %'`);
    }, database.url);
    // Every first task has been sent; the second ones wait out their 3 s. The process holding most runs dies.
    await within(15_000, 'every first task is sent', () => commands(from).filter((c) => c.endsWith(' task 1')).length === STORM);
    const holders = await withAdminClient(async (c) => (await c.query<{ claimed_by: string; n: number }>(`SELECT claimed_by, count(*)::int AS n FROM schedule WHERE is_processing GROUP BY 1 ORDER BY 2 DESC`)).rows, database.url);
    const victim = each().find((panel) => holders[0]?.claimed_by === `${hostname()}:${panel.child.proc.pid}`);
    expect(victim).toBeDefined();
    expect(commands(from).filter((c) => c.endsWith(' task 2'))).toEqual([]);
    victim!.child.proc.kill('SIGKILL');
    await victim!.child.exited;
    const killedAt = new Date();
    // Its claims go stale (SCHEDULER_STALE_CLAIM_SECONDS is 6 here) and the others resume its runs after the task they began.
    await within(30_000, 'every second task is sent', () => commands(from).filter((c) => c.endsWith(' task 2')).length >= STORM);
    await new Promise((r) => setTimeout(r, 1_500));
    const sent = commands(from);
    const counts = new Map<string, number>();
    for (const command of sent) {
      counts.set(command, (counts.get(command) ?? 0) + 1);
    }
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(counts.size).toBe(2 * STORM);
    await withAdminClient(async (c) => {
      const left = await c.query(`SELECT count(*)::int AS n FROM schedule WHERE name LIKE 'storm %' AND (is_processing OR run_progress IS NOT NULL)`);
      expect(left.rows[0].n).toBe(0);
      const resumed = await c.query(`SELECT count(*)::int AS n FROM server_activity WHERE event = 'server.schedule.run.start' AND metadata->>'trigger' = 'resume'`);
      expect(resumed.rows[0].n).toBe(holders[0].n);
      await c.query(`DELETE FROM schedule WHERE name LIKE 'storm %'`);
      // The background work went on without it: the sweeps since were run by the others (a sweep it held
      // when killed holds the next ones back until its heartbeats are missed: about 20 s).
      const since = async () =>
        (await c.query<{ by: string }>(`SELECT output->>'ranBy' AS by FROM ${JOB_SCHEMA}.job WHERE name = 'transfers.sweep' AND state = 'completed' AND started_on > $1`, [killedAt])).rows;
      await within(30_000, 'a sweep after the kill', async () => (await since()).length > 0);
      expect((await since()).filter((j) => j.by === `${hostname()}:${victim!.child.proc.pid}`)).toEqual([]);
    }, database.url);
    await fleet.start(victim!);
  }, 90_000);

  it("should share a server's live state: asked of the node once for the fleet, forgotten by all at a power action", async () => {
    // The server runs (the storm started it). Its page asks the daemon for the live state, kept 1 s.
    const asked = () => sim!.requests.filter((r) => r.method === 'GET' && r.path === `/api/servers/${server.uuid}`).length;
    const statusOn = async (panel: PanelInstance) => (await on(panel).request<{ status: string }>('GET', `/api/client/servers/${server.uuid}`, { session: kept })).status;
    await new Promise((r) => setTimeout(r, 1_100));
    const before = asked();
    expect(await statusOn(each()[0])).toBe('running');
    expect(asked()).toBe(before + 1);
    // The other processes take that answer from Redis instead of asking.
    expect(await Promise.all([each()[1], each()[2], each()[1], each()[2]].map(statusOn))).toEqual(['running', 'running', 'running', 'running']);
    expect(asked()).toBe(before + 1);
    // A power action through one process: every other asks afresh at once.
    await on(each()[0]).request('POST', `/api/client/servers/${server.uuid}/power`, { session: kept, body: { action: 'stop' } });
    expect(['stopping', 'offline']).toContain(await statusOn(each()[2]));
    await within(10_000, 'the server stops', () => sim!.servers.get(server.uuid)?.state === 'offline');
  });

  it('should, once told to stop, report itself unhealthy for SHUTDOWN_DRAIN_SECONDS while it still serves, then stop', async () => {
    const panel = each()[2];
    panel.child.proc.kill('SIGTERM');
    // As soon as it has the signal (a moment on a busy machine), for the 2 s of its drain.
    let code = '';
    await within(1_500, `${panel.name} fails its health check`, async () => {
      const health = await fetch(`${panel.url}/api/health`);
      code = health.status === 503 ? ((await health.json()) as { code: string }).code : '';
      return health.status === 503;
    });
    expect(code).toBe('SHUTTING_DOWN');
    expect((await fetch(`${panel.url}/api/settings`)).status).toBe(200);
    // HAProxy has taken it out: every answer comes from the other two.
    await within(1_000, 'HAProxy takes the draining panel out', async () => {
      const served = await Promise.all(Array.from({ length: 4 }, async () => (await fetch(`${fleet.url}/api/settings`)).headers.get('x-served-by')));
      return !served.includes(panel.name);
    });
    expect(await panel.child.exited).toBe(null);
    expect(panel.child.proc.signalCode).toBe('SIGTERM');
    await fleet.start(panel);
  });

  it('should answer no 5xx while every process is restarted in turn under load', async () => {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const answers: string[] = [];
    let loading = true;
    let signedIn = 0;
    let renamed = 0;
    /**
     * A client: the owner's server page (within the account's rate limit), the public settings from many
     * addresses, or the administrator renaming the server (a change, which HAProxy never sends twice:
     * the drain is what spares it a 502).
     */
    const load = async (kind: 'owner' | 'public' | 'change') => {
      while (loading) {
        const asOwner = kind === 'owner' && signedIn < 250;
        signedIn += asOwner ? 1 : 0;
        const change = kind === 'change' && renamed < 120;
        renamed += change ? 1 : 0;
        const from = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
        try {
          const res = change
            ? await fetch(`${fleet.url}/api/client/servers/${server.uuid}/settings/rename`, {
                method: 'POST',
                headers: { cookie: admin.cookie, origin: fleet.url, 'content-type': 'application/json' },
                body: JSON.stringify({ name: `Fleet survival ${renamed}` }),
              })
            : await fetch(`${fleet.url}${asOwner ? `/api/client/servers/${server.uuid}` : '/api/settings'}`, {
                headers: { 'x-forwarded-for': from, ...(asOwner ? { cookie: kept.cookie } : {}) },
              });
          const body = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status !== (change ? 204 : 200) && answers.length < 5) {
            answers.push(`${res.status} from ${res.headers.get('x-served-by') ?? 'HAProxy'}: ${body.slice(0, 300)}`);
          }
        } catch (e) {
          failures.push(String((e as Error).cause ?? e));
        }
        if (asOwner || change) {
          await new Promise((r) => setTimeout(r, change ? 50 : 30));
        }
      }
    };
    const clients = [load('owner'), load('public'), load('public'), load('change')];
    for (const panel of each()) {
      await fleet.restart(panel);
      // HAProxy's check (every 250 ms) takes the panel back before the next one goes.
      await new Promise((r) => setTimeout(r, 600));
    }
    loading = false;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answers).toEqual([]);
    expect([...statuses.keys()].sort()).toEqual([200, 204]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(statuses.get(204)).toBeGreaterThan(50);
  }, 120_000);

  it("should keep the usage sampler's shift in one process at a time, and pass it on when that process stops", async () => {
    // Every process was restarted just now (and one killed before): the shift held at each stop ended
    // there (or, killed, was failed once its heartbeats stopped) and was taken up by another process.
    const pids = each().map((panel) => panel.child.proc.pid);
    await withAdminClient(async (c) => {
      const holders = async () =>
        (await c.query<{ pid: number }>(
          `SELECT pid FROM ${JOB_SCHEMA}.instance, jsonb_array_elements(workers) w
           WHERE stopped_on IS NULL AND name = 'hatchery-panel' AND w->>'queue' = 'usage.sample' AND (w->>'active')::int > 0`,
        )).rows.map((r) => r.pid);
      // (pg-boss's registry, refreshed every 10 s)
      // (a killed process's row stays in the registry, its heartbeat stale: only the running ones count)
      await within(30_000, 'a running process holds the shift', async () => (await holders()).filter((pid) => pids.includes(pid)).length === 1);
      const shifts = (await c.query<{ state: string; by: string | null }>(`SELECT state::text, output->>'ranBy' AS by FROM ${JOB_SCHEMA}.job WHERE name = 'usage.sample'`)).rows;
      expect(shifts.filter((j) => j.state === 'active')).toHaveLength(1);
      const ended = shifts.filter((j) => j.state === 'completed');
      expect(ended.length).toBeGreaterThan(0);
      expect(ended.filter((j) => j.by === null || pids.some((pid) => j.by === `${hostname()}:${pid}`))).toEqual([]);
    }, database.url);
  }, 45_000);

  /** The panel whose process sent `request` to the simulator: the socket of its port, among the process's open files. */
  const sender = (request: RecordedRequest): PanelInstance => {
    const port = `:${request.remotePort!.toString(16).toUpperCase().padStart(4, '0')}`;
    // /proc/net/tcp: "sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ..."
    const sockets = new Set(
      readFileSync('/proc/net/tcp', 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((f) => f[1]?.endsWith(port))
        .map((f) => `socket:[${f[9]}]`),
    );
    const holds = (pid: number) =>
      readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return sockets.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
        } catch {
          return false;
        }
      });
    const found = each().find((panel) => panel.child.running && holds(panel.child.proc.pid!));
    if (!found) {
      throw new Error(`no panel process holds the connection from port ${request.remotePort}`);
    }
    return found;
  };

  // Last: the processes it kills leave the sampler's shift with a dead holder for about 20 s.
  it('should send a request a killed process left unanswered to another process when it is a read, never when it changes something', async () => {
    // The node answers each request a second late: time to kill the process waiting for it.
    sim!.faults.slowMs = 1_000;
    const killSender = async (sent: () => RecordedRequest[], count: number): Promise<PanelInstance> => {
      await within(10_000, 'the node is asked', () => sent().length === count + 1);
      const victim = sender(sent().at(-1)!);
      victim.child.proc.kill('SIGKILL');
      await victim.child.exited;
      return victim;
    };
    const headers = { cookie: kept.cookie, origin: fleet.url, 'content-type': 'application/json' };
    try {
      // A power action: whether the node carried it out is unknown once its process is gone, so HAProxy
      // does not send it again (sent twice, a "restart" restarts twice): it answers 502, or, on a client
      // connection that had carried a request before, closes it unanswered (HTTP/1.1's keep-alive rule).
      const powers = () => sim!.requestsTo(`/api/servers/${server.uuid}/power`, 'POST');
      const powered = powers().length;
      const power = fetch(`${fleet.url}/api/client/servers/${server.uuid}/power`, { method: 'POST', headers, body: JSON.stringify({ action: 'restart' }) }).then(
        (res) => String(res.status),
        // (undici's errors come from another realm than Jest's: instanceof Error does not hold)
        (e: Error) => (e.cause as { message?: string } | undefined)?.message ?? e.message,
      );
      const powerVictim = await killSender(powers, powered);
      // (HAProxy resends before it answers: once answered, nothing more comes.)
      expect(await power).toMatch(/^502$|other side closed/);
      expect(powers()).toHaveLength(powered + 1);

      // A directory listing: sent again to another process, which answers it.
      const lists = () => sim!.requestsTo(`/api/servers/${server.uuid}/files/list-directory`, 'GET');
      const listed = lists().length;
      const list = fetch(`${fleet.url}/api/client/servers/${server.uuid}/files/list?directory=%2F`, { headers });
      const listVictim = await killSender(lists, listed);
      const answer = await list;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-served-by')).not.toBe(listVictim.name);
      expect(lists()).toHaveLength(listed + 2);
      await Promise.all([fleet.start(powerVictim), fleet.start(listVictim)]);
    } finally {
      sim!.faults.slowMs = undefined;
    }
  }, 60_000);
});

run('the HAProxy configuration shipped with docker/compose.fleet.yml', () => {
  const shipped = join(PANEL_ROOT, 'docker', 'fleet', 'haproxy.cfg');

  it("should be valid to HAProxy, and give the fleet above its retries and health checks (what the fleet's tests prove is the shipped file's)", () => {
    expect(checkHaproxyConfig(shipped)).toBe('');
    const policy = shippedHaproxyPolicy(shipped);
    expect(policy.defaults).toContain('retry-on conn-failure empty-response');
    expect(policy.backend).toContain('http-request disable-l7-retry if !METH_GET !METH_OPTIONS');
  });

  it('should refuse a configuration that lost a line of the policy, not run the fleet without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hatchery-haproxy-'));
    try {
      const edited = join(dir, 'haproxy.cfg');
      writeFileSync(edited, readFileSync(shipped, 'utf8').replace(/^\s*retry-on .*$/m, ''));
      expect(() => shippedHaproxyPolicy(edited)).toThrow(/defaults section has no line matching \/\^retry-on\\b\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
