/**
 * The large database of `npm run bench -- --large`: 100,000 servers on 1,000 nodes, 300,000 users,
 * their subusers and server variables, and 2 million log rows (server activity and audit log,
 * about half each), built in SQL in a few minutes.
 *
 * The panel's own migrations run first (in this process, as the tests' template does), so the
 * generator follows the schema as migrations are added; the rows are then generated with
 * INSERT ... SELECT over generate_series, in the shapes bench/lib/seed.ts and the entities use,
 * and everything is VACUUMed and ANALYZEd (as autovacuum leaves a database at rest; the bench's
 * PostgreSQL may run without it, and the generator's UPDATEs left one dead row per server and per
 * used allocation, which index-only scans and lookups by id then visited). Secrets (node tokens) are sealed with LARGE_APP_KEY, which a panel
 * started on this database must use.
 *
 * Layout:
 * - node 1 is the simulated daemon (the bench points it at the simulator's port before each run):
 *   it holds 1,000 servers, the first 50 of them the owner's (owner@bench.test); the other 99,000
 *   servers go round nodes 2 to 1,000 (about 99 each), each on an allocation of its own node;
 * - the owner's first server is the "busy" one (200,000 activity rows); the other servers have
 *   about 8 each, spread over a year;
 * - audit rows are of mixed actions (users, servers, nodes, eggs, locations...) spread over two years;
 * - server n is named `Server n` and has the external id `billing-n`, as in the small seed.
 *
 * Reuse: the database carries a comment with the generator version and the migrations it was built
 * on. `ensureLargeDatabase` keeps it when the version matches and every migration it has is still
 * one of the panel's (new migrations are applied to the existing rows, then VACUUM ANALYZE); otherwise,
 * or with `rebuild`, it drops and builds it again.
 *
 * CLI (for EXPLAIN ANALYZE against a large database):
 *   npm run bench:large-seed -- [database-url] [--rebuild]
 *   (or: node -r ts-node/register/transpile-only -r tsconfig-paths/register bench/large-seed.ts [database-url] [--rebuild])
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ALPHANUMERIC, randomString } from 'src/common/crypto/tokens';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppConfigService } from 'src/config/app-config.service';
import { createDataSourceOptions } from 'src/database/data-source';
import { ensureMonth, LOG_TABLES } from 'src/database/log-partitions';
import { MIGRATIONS } from 'src/database/migrations';
import { nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { parsePtdl } from 'src/modules/eggs/ptdl';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { ADMIN_EMAIL, eggFixture, OWNER_EMAIL, PASSWORD, SUBUSER_PERMISSIONS } from 'bench/lib/seed';

export interface Shape {
  servers: number;
  nodes: number;
  users: number;
  locations: number;
  ownerServers: number;
  node1Servers: number;
  allocationsPerNode: number;
  subuserEvery: number;
  busyActivity: number;
  typicalActivity: number;
  auditRows: number;
}

export const LARGE: Shape = {
  servers: 100_000,
  nodes: 1000,
  users: 300_000,
  locations: 10,
  ownerServers: 50,
  /** Servers on node 1 (the simulated daemon), the owner's 50 among them. */
  node1Servers: 1000,
  /** Allocations per node (node 1 has node1Servers + 100). */
  allocationsPerNode: 150,
  subuserEvery: 10,
  busyActivity: 200_000,
  typicalActivity: 800_000,
  auditRows: 1_000_000,
};

/**
 * The same data at 1/100 (1,000 servers on 10 nodes, 3,000 users, 20,000 log rows), the other size
 * of `--large`: the owner still has 50 servers on node 1 (of 100 there), the busy server 2,000 rows.
 */
export const SMALL: Shape = {
  servers: 1000,
  nodes: 10,
  users: 3_000,
  locations: 2,
  ownerServers: 50,
  node1Servers: 100,
  allocationsPerNode: 150,
  subuserEvery: 10,
  busyActivity: 2000,
  typicalActivity: 8000,
  auditRows: 10_000,
};

/**
 * Raise when the rows generated change, so an older database is built again. 2: the counters the
 * triggers keep (server_totals, audit_log_count, server_activity_count) are filled, the server and
 * allocation tables are laid out in id order, and the database is vacuumed; 1 left the counters empty
 * in a database built from scratch (its lists counted 0 servers and 0 audit entries), and the rows its
 * UPDATEs had rewritten scattered, one matching server to a heap page, with the dead versions in place.
 * 3: 300,000 users (3,000 at the small size), a fleet's size (docs/benchmarks.md); 30,000 before.
 */
const LARGE_GENERATOR_VERSION = 3;
export const LARGE_DB_NAME = 'hatchery_bench_large';
/** The APP_KEY the node tokens are sealed with: a panel on the large database must run with it. */
export const LARGE_APP_KEY = 'hatchery-bench-large-app-key-not-a-secret-0001';
/**
 * The settings a panel on a large database runs with: LARGE_APP_KEY, and every log kept for ever (0).
 * The generated history spans two years; the default retention's first sweep would cut it (whole
 * months at once, since the logs are partitioned by month), and the next run, reusing the database,
 * would measure a smaller one than was built.
 */
export const LARGE_PANEL_ENV: Record<string, string> = {
  APP_KEY: LARGE_APP_KEY,
  AUDIT_RETENTION_DAYS: '0',
  AUDIT_SECURITY_RETENTION_DAYS: '0',
  ACTIVITY_RETENTION_DAYS: '0',
  ACTIVITY_SECURITY_RETENTION_DAYS: '0',
  ACTIVITY_CONSOLE_RETENTION_DAYS: '0',
};

export interface LargeInfo {
  counts: Record<string, number>;
  /** Seconds the build took (0 when the database was reused). */
  buildSeconds: number;
  reused: boolean;
  node1: { id: string; tokenId: string; token: string };
  owner: { id: string; username: string };
  /** The owner's servers, first = the busy one, second = a typical one. */
  ownerServers: { id: string; identifier: string; uuid: string }[];
}

const marker = (shape: Shape, migrations: string[]): string => JSON.stringify({ generator: LARGE_GENERATOR_VERSION, shape, migrations });

const migrationNames = (): string[] => MIGRATIONS.map((m) => (typeof m === 'function' ? m.name : String(m)));

const config = (url: string): AppConfigService => AppConfigService.fromEnv({ DATABASE_URL: url, APP_KEY: LARGE_APP_KEY, NODE_ENV: 'production' });

/** Applies the panel's pending migrations; returns the names now applied. */
const migrate = async (url: string): Promise<string[]> => {
  const ds = new DataSource(createDataSourceOptions(config(url)));
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
    return (await ds.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id')).map((r) => r.name);
  } finally {
    await ds.destroy();
  }
};

const ACTIVITY_EVENTS = [
  'server.console.command',
  'server.power.start',
  'server.power.stop',
  'server.power.restart',
  'server.file.upload',
  'server.file.rename',
  'server.file.delete',
  'server.settings.rename',
  'server.startup.edit',
  'server.allocation.notes',
];

/** [action, target type]: the audit log's categories, as the panel's services write them. */
const AUDIT_ACTIONS: [string, string][] = [
  ['user.created', 'user'],
  ['user.updated', 'user'],
  ['user.deleted', 'user'],
  ['user.password_changed', 'user'],
  ['user.two_factor_enabled', 'user'],
  ['server.created', 'server'],
  ['server.deleted', 'server'],
  ['server.reinstalled', 'server'],
  ['server.suspended', 'server'],
  ['server.updated', 'server'],
  ['node.created', 'node'],
  ['node.updated', 'node'],
  ['node.token_reset', 'node'],
  ['location.created', 'location'],
  ['location.updated', 'location'],
  ['egg.updated', 'egg'],
  ['nest.updated', 'nest'],
  ['mount.created', 'mount'],
  ['mount.updated', 'mount'],
  ['database_host.updated', 'database_host'],
];

const generate = async (db: Client, L: Shape, log: (m: string) => void): Promise<void> => {
  const step = async (what: string, sql: string, params: unknown[] = []): Promise<void> => {
    const started = Date.now();
    const res = await db.query(sql, params);
    log(`${what}: ${res.rowCount ?? 0} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  // Bulk load: no per-row triggers (the change notifications, the foreign key checks; the rows are made consistent here).
  await db.query(`SET session_replication_role = replica`);
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET work_mem = '64MB'`);
  await db.query(`SET maintenance_work_mem = '256MB'`);

  const hash = await new PasswordHasher(AppConfigService.fromEnv({ APP_KEY: 'x'.repeat(32) })).hash(PASSWORD);
  await step(
    'users',
    `INSERT INTO "user" (username, email, name, password_hash, admin, created_at, updated_at)
     SELECT u, e, initcap(u), $1, a, now() - interval '2 years' + n * interval '30 minutes', now() - interval '2 years' + n * interval '30 minutes'
     FROM (
       SELECT 1 AS n, 'admin' AS u, $2::text AS e, true AS a
       UNION ALL SELECT 2, 'owner', $3::text, false
       UNION ALL SELECT g, 'player' || p, 'player' || p || '@bench.test', false
         FROM generate_series(3, $4::int) g, LATERAL (SELECT lpad((g - 2)::text, greatest(5, length((g - 2)::text)), '0') AS p) padded
     ) t ORDER BY n`,
    [hash, ADMIN_EMAIL, OWNER_EMAIL, L.users],
  );

  await step(
    'locations',
    `INSERT INTO location (short, long) SELECT 'loc-' || lpad(g::text, 2, '0'), 'Bench location ' || g FROM generate_series(1, $1::int) g`,
    [L.locations],
  );
  const box = new SecretBox(config('postgres://unused'));
  const uuids: string[] = [];
  const tokenIds: string[] = [];
  const secrets: string[] = [];
  for (let i = 0; i < L.nodes; i++) {
    const uuid = randomUUID();
    uuids.push(uuid);
    tokenIds.push(randomString(16, ALPHANUMERIC));
    secrets.push(box.seal(randomString(64, ALPHANUMERIC), nodeTokenContext({ uuid })));
  }
  // Node 1 is the simulator on loopback (its port is set by the bench); the others are never called.
  await step(
    'nodes',
    `INSERT INTO node (uuid, name, fqdn, scheme, base_url, daemon_listen, memory, disk, token_identifier, token_secret, location_id)
     SELECT u, 'node-' || n, CASE WHEN n = 1 THEN '127.0.0.1' ELSE 'node-' || n || '.bench.test' END,
            CASE WHEN n = 1 THEN 'http' ELSE 'https' END,
            CASE WHEN n = 1 THEN 'http://127.0.0.1:8080' ELSE 'https://node-' || n || '.bench.test:8080' END,
            8080, 262144, 4000000, t, s, (SELECT min(id) FROM location) + (n - 1) % $4::int
     FROM unnest($1::uuid[], $2::varchar[], $3::text[]) WITH ORDINALITY AS x(u, t, s, n) ORDER BY n`,
    [uuids, tokenIds, secrets, L.locations],
  );
  await step(
    'allocations',
    `INSERT INTO allocation (node_id, ip, port)
     SELECT n.id, '0.0.0.0', 25565 + g
     FROM node n CROSS JOIN LATERAL generate_series(0, CASE WHEN n.name = 'node-1' THEN $1::int ELSE $2::int END - 1) g
     ORDER BY n.id, g`,
    [L.node1Servers + 100, L.allocationsPerNode],
  );

  const { egg: eggJson } = eggFixture();
  const { egg, variables } = parsePtdl(eggJson);
  const nest = await db.query<{ id: string }>(`INSERT INTO nest (name, author) VALUES ('Minecraft', 'bench@hatchery.test') RETURNING id`);
  const eggRow = await db.query<{ id: string }>(
    `INSERT INTO egg (nest_id, author, name, description, features, docker_image, docker_images, file_denylist, startup,
                      config_files, config_startup, config_logs, config_stop, script_container, script_entry, script_install, update_url, force_outgoing_ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
    [
      nest.rows[0].id,
      egg.author,
      egg.name,
      egg.description,
      egg.features === null ? null : JSON.stringify(egg.features),
      egg.dockerImage,
      JSON.stringify(egg.dockerImages),
      JSON.stringify(egg.fileDenylist),
      egg.startup,
      egg.configFiles,
      egg.configStartup,
      egg.configLogs,
      egg.configStop,
      egg.scriptContainer,
      egg.scriptEntry,
      egg.scriptInstall,
      egg.updateUrl,
      egg.forceOutgoingIp,
    ],
  );
  const eggId = eggRow.rows[0].id;
  for (const [i, v] of variables.entries()) {
    await db.query(
      `INSERT INTO egg_variable (egg_id, position, name, description, env_variable, default_value, user_viewable, user_editable, rules)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [eggId, i, v.name, v.description, v.envVariable, v.defaultValue, v.userViewable, v.userEditable, v.rules],
    );
  }

  // Server uuids whose first 8 characters (the identifier) are unique: a few spare, the clashes dropped.
  await db.query(
    `CREATE TEMP TABLE bench_uuid AS
     SELECT u, row_number() OVER (ORDER BY random()) AS n
     FROM (SELECT DISTINCT ON (left(u::text, 8)) u FROM (SELECT gen_random_uuid() AS u FROM generate_series(1, $1::int + 1000)) a) b`,
    [L.servers],
  );
  // Server n: node 1 for n <= node1Servers, else nodes 2..1000 in turn; owner: the owner for n <= 50, else the players in turn.
  await step(
    'servers',
    `INSERT INTO server (uuid, identifier, name, owner_id, node_id, egg_id, startup, image, memory, disk, cpu, installed_at, external_id, created_at, updated_at)
     SELECT b.u, left(b.u::text, 8), 'Server ' || b.n,
            CASE WHEN b.n <= $2 THEN ow.id ELSE (SELECT min(id) FROM "user") + 2 + (b.n - $2 - 1) % ($5::int - 2) END,
            CASE WHEN b.n <= $3 THEN n1.id ELSE n1.id + 1 + (b.n - $3 - 1) % ($4::int - 1) END,
            $6, e.startup, e.docker_image, 2048, 10240, 200, now(), 'billing-' || b.n,
            now() - interval '1 year' + b.n * interval '5 minutes', now() - interval '1 year' + b.n * interval '5 minutes'
     FROM bench_uuid b, egg e, (SELECT id FROM "user" WHERE username = 'owner') ow, (SELECT id FROM node WHERE name = 'node-1') n1
     WHERE b.n <= $1 AND e.id = $6
     ORDER BY b.n`,
    [L.servers, L.ownerServers, L.node1Servers, L.nodes, L.users, eggId],
  );
  // The k-th server of a node takes the node's k-th allocation.
  await step(
    'server allocations',
    `WITH s AS (SELECT id, node_id, row_number() OVER (PARTITION BY node_id ORDER BY id) AS k FROM server),
          a AS (SELECT id, node_id, row_number() OVER (PARTITION BY node_id ORDER BY port) AS k FROM allocation)
     UPDATE server SET allocation_id = a.id FROM s JOIN a ON a.node_id = s.node_id AND a.k = s.k WHERE server.id = s.id`,
  );
  await step('allocation owners', `UPDATE allocation SET server_id = s.id FROM server s WHERE s.allocation_id = allocation.id`);
  // Those UPDATEs wrote every server and used allocation again, in the join's order: a search's matching
  // servers then sat one to a heap page. A panel creates a server with its allocation in one go, so its
  // rows lie in id order: the tables are rewritten in it (which also drops the old row versions).
  await step('servers in id order', `CLUSTER server USING "PK_server"`);
  await step('allocations in id order', `CLUSTER allocation USING "PK_allocation"`);
  await step(
    'server variables',
    `INSERT INTO server_variable (server_id, variable_id, value)
     SELECT s.id, v.id, v.default_value FROM server s CROSS JOIN egg_variable v WHERE v.egg_id = $1 ORDER BY s.id, v.position`,
    [eggId],
  );
  // One server in ten gets a subuser: a player who does not own it.
  await step(
    'subusers',
    `INSERT INTO subuser (server_id, user_id, permissions)
     SELECT s.id, CASE WHEN c.id = s.owner_id THEN c.id + 1 ELSE c.id END, $2::text[]
     FROM (SELECT id, owner_id, row_number() OVER (ORDER BY id) AS n FROM server) s
     CROSS JOIN LATERAL (SELECT (SELECT min(id) FROM "user") + 2 + (s.n * 7) % ($3::int - 3) AS id) c
     WHERE s.n % $1 = 1`,
    [L.subuserEvery, SUBUSER_PERMISSIONS, L.users],
  );

  // The logs' months (migration PartitionLogsByMonth made this month and two ahead, on empty tables):
  // the two years the entries below span get theirs, as an upgraded panel's migration makes them.
  const started = Date.now();
  const now = new Date();
  for (const table of LOG_TABLES) {
    for (let back = 1; back <= 25; back++) {
      await ensureMonth(async (sql, params) => (await db.query(sql, params)).rows as never, table, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)));
    }
  }
  log(`log months: 25 a log in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Activity: the owner's first server is busy; every other server has a few entries.
  const activitySelect = (count: string, serverExpr: string, from: string): string => `
    INSERT INTO server_activity (server_id, actor_id, actor_username, event, metadata, ip, via, created_at)
    SELECT s.id, u.id, u.username, ($1::text[])[1 + g % array_length($1::text[], 1)],
           jsonb_build_object('n', g), '203.0.113.' || (g % 250 + 1), 'session', now() - (g % 525600) * interval '1 minute'
    FROM generate_series(1, ${count}) g
    JOIN server s ON s.id = ${serverExpr}
    JOIN "user" u ON u.id = s.owner_id
    ${from}`;
  const firstOwned = `(SELECT min(id) FROM server WHERE owner_id = (SELECT id FROM "user" WHERE username = 'owner'))`;
  await step('busy server activity', activitySelect('$2::int', firstOwned, 'ORDER BY g % 525600 DESC'), [ACTIVITY_EVENTS, L.busyActivity]);
  await step(
    'activity',
    activitySelect('$2::int', `(SELECT min(id) FROM server) + 1 + g % ($3::int - 1)`, 'ORDER BY g % 525600 DESC'),
    [ACTIVITY_EVENTS, L.typicalActivity, L.servers],
  );

  await step(
    'audit log',
    `INSERT INTO audit_log (actor_id, actor_username, via, action, target_type, target_id, changes, ip, created_at)
     SELECT a.id, 'admin', CASE WHEN g % 3 = 0 THEN 'session' ELSE 'api-key:bench' END, ($1::text[])[k], ($2::text[])[k], (1 + g % 100000)::text,
            jsonb_build_object('after', jsonb_build_object('n', g)), '198.51.100.' || (g % 250 + 1),
            now() - interval '2 years' + g * (interval '2 years' / $3::int)
     FROM generate_series(1, $3::int) g
     CROSS JOIN LATERAL (SELECT 1 + (g::bigint * 7919) % array_length($1::text[], 1) AS k) kk
     CROSS JOIN (SELECT id FROM "user" WHERE username = 'admin') a
     ORDER BY g`,
    [AUDIT_ACTIONS.map((a) => a[0]), AUDIT_ACTIONS.map((a) => a[1]), L.auditRows],
  );
  await db.query(`SET session_replication_role = origin`);
  // The counters the statement triggers keep (off during the bulk load), counted again from the rows
  // as the migrations that made them counted them (the migrations, run on empty tables, left zeros).
  for (const [table, fill] of [
    ['server_totals', `SELECT node_id, count(*), COALESCE(sum(memory), 0), COALESCE(sum(disk), 0) FROM server GROUP BY node_id`],
    ['audit_log_count', `SELECT 0, count(*) FROM audit_log`],
    ['server_activity_count', `SELECT server_id, 0, count(*) FROM server_activity GROUP BY server_id`],
  ]) {
    await db.query(`DELETE FROM ${table}`);
    await step(`counters: ${table}`, `INSERT INTO ${table} ${fill}`);
  }
};

const countsOf = async (db: Client): Promise<Record<string, number>> => {
  const out: Record<string, number> = {};
  for (const table of ['user', 'node', 'location', 'allocation', 'server', 'server_variable', 'subuser', 'server_activity', 'audit_log']) {
    out[table] = Number((await db.query(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0].n);
  }
  return out;
};

const infoOf = async (db: Client): Promise<Omit<LargeInfo, 'buildSeconds' | 'reused' | 'counts'>> => {
  const node = (await db.query<{ id: string; uuid: string; token_identifier: string; token_secret: string }>(`SELECT id, uuid, token_identifier, token_secret FROM node WHERE name = 'node-1'`))
    .rows[0];
  const owner = (await db.query<{ id: string; username: string }>(`SELECT id, username FROM "user" WHERE username = 'owner'`)).rows[0];
  const servers = (await db.query<{ id: string; identifier: string; uuid: string }>(`SELECT id, identifier, uuid FROM server WHERE owner_id = $1 ORDER BY id`, [owner.id])).rows;
  const token = new SecretBox(config('postgres://unused')).open(node.token_secret, nodeTokenContext({ uuid: node.uuid }));
  return { node1: { id: node.id, tokenId: node.token_identifier, token }, owner, ownerServers: servers };
};

const databaseName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

/** Builds the large data set on an empty database (migrations, rows, VACUUM ANALYZE) and marks it. */
const seedLarge = async (databaseUrl: string, log: (m: string) => void = () => undefined, shape: Shape = LARGE): Promise<LargeInfo> => {
  const started = Date.now();
  const applied = await migrate(databaseUrl);
  log(`migrations: ${applied.length} applied`);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    if (Number((await db.query(`SELECT count(*)::int AS n FROM server`)).rows[0].n) > 0) {
      throw new Error(`${databaseName(databaseUrl)} already holds servers: seedLarge needs an empty database`);
    }
    await generate(db, shape, log);
    const analyzed = Date.now();
    await db.query('VACUUM (ANALYZE)');
    log(`VACUUM ANALYZE: ${((Date.now() - analyzed) / 1000).toFixed(1)} s`);
    await db.query(`COMMENT ON DATABASE "${databaseName(databaseUrl).replace(/"/g, '')}" IS ${db.escapeLiteral(marker(shape, applied))}`);
    const counts = await countsOf(db);
    return { counts, buildSeconds: Math.round((Date.now() - started) / 1000), reused: false, ...(await infoOf(db)) };
  } finally {
    await db.end();
  }
};

/**
 * The large database at `databaseUrl` (created through `adminUrl` when missing), reused when its
 * marker says it was built by this generator version on migrations the panel still has.
 */
export const ensureLargeDatabase = async (adminUrl: string, databaseUrl: string, opts: { rebuild?: boolean; log?: (m: string) => void; shape?: Shape } = {}): Promise<LargeInfo> => {
  const log = opts.log ?? (() => undefined);
  const shape = opts.shape ?? LARGE;
  const name = databaseName(databaseUrl);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
    throw new Error(`bad database name ${name}`);
  }
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  let reuse = false;
  try {
    const row = (
      await admin.query<{ comment: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [name])
    ).rows[0];
    if (row && !opts.rebuild) {
      let built: { generator?: number; shape?: Shape; migrations?: string[] } = {};
      try {
        built = JSON.parse(row.comment ?? '{}') as typeof built;
      } catch {
        // not ours
      }
      const known = new Set(migrationNames());
      reuse =
        built.generator === LARGE_GENERATOR_VERSION &&
        JSON.stringify(built.shape) === JSON.stringify(shape) &&
        Array.isArray(built.migrations) && built.migrations.every((m) => known.has(m));
      log(reuse ? `reusing ${name} (generator ${built.generator})` : `${name} is out of date (${row.comment ?? 'no marker'}): building it again`);
    }
    if (!reuse) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  if (!reuse) {
    return seedLarge(databaseUrl, log, shape);
  }
  // New migrations (an index, an extension) are applied to the rows already there, as in production.
  const before = Date.now();
  const applied = await migrate(databaseUrl);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const current = JSON.parse((await db.query<{ c: string }>(`SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1`, [name])).rows[0].c) as {
      migrations: string[];
    };
    if (applied.length !== current.migrations.length) {
      log(`applied ${applied.length - current.migrations.length} new migration(s) to ${name}; VACUUM ANALYZE`);
      await db.query('VACUUM (ANALYZE)');
      await db.query(`COMMENT ON DATABASE ${name} IS ${db.escapeLiteral(marker(shape, applied))}`);
    }
    return { counts: await countsOf(db), buildSeconds: Math.round((Date.now() - before) / 1000), reused: true, ...(await infoOf(db)) };
  } finally {
    await db.end();
  }
};
