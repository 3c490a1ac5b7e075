import { DataSource, QueryRunner } from 'typeorm';
import { PartitionLogsByMonth1796020000000 } from 'src/database/migrations/1796020000000-PartitionLogsByMonth';
import { createUser } from 'test/factories/user.factory';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

// Fails when an entity changed without a migration: generate one with `npm run migration:generate`.
describe.each(dbKinds(['postgres', 'pglite']))('migrations match the entities (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should leave nothing for the schema builder to change after all migrations ran', async () => {
    const dataSource = t.app.get(DataSource);
    const pending = await dataSource.showMigrations();
    expect(pending).toBe(false);
    const sql = await dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('should undo and redo the latest migration cleanly', async () => {
    const dataSource = t.app.get(DataSource);
    await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await dataSource.showMigrations()).toBe(true);
    await dataSource.runMigrations({ transaction: 'each' });
    expect((await dataSource.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });

  it("should carry the audit log through its partitioning by month and back: rows, ids, counts, and each row in its month", async () => {
    const ds = t.app.get(DataSource);
    const user = await createUser(t.app);
    const old = new Date(Date.now() - 100 * 86_400_000);
    await ds.query(
      `INSERT INTO audit_log (actor_id, actor_username, via, action, target_type, target_id, changes, created_at)
       VALUES ($1, 'm', 'session', 'user.updated', 'user', $3, '{}', $2), ($1, 'm', 'session', 'user.updated', 'user', $3, '{}', now())`,
      [user.id, old, String(user.id)],
    );
    const state = async () => ({
      rows: await ds.query<{ id: string; at: Date }[]>(`SELECT id, created_at AS at FROM audit_log ORDER BY id`),
      counted: (await ds.query<{ n: number }[]>(`SELECT COALESCE(sum(n), 0)::int AS n FROM audit_log_count`))[0].n,
      kind: (await ds.query<{ k: string }[]>(`SELECT relkind::text AS k FROM pg_class WHERE relname = 'audit_log'`))[0].k,
    });
    const before = await state();
    expect(before).toMatchObject({ counted: before.rows.length, kind: 'p' });
    // (a runner of its own for each step: the embedded database's one session is not shared while it is held)
    const step = async (run: (migration: PartitionLogsByMonth1796020000000, runner: QueryRunner) => Promise<void>) => {
      const runner = ds.createQueryRunner();
      try {
        await run(new PartitionLogsByMonth1796020000000(), runner);
      } finally {
        await runner.release();
      }
    };
    await step((m, r) => m.down(r));
    expect(await state()).toEqual({ ...before, kind: 'r' });
    await step((m, r) => m.up(r));
    expect(await state()).toEqual(before);
    // The old row is in its month's partition, made by the migration from the rows' months.
    const month = `audit_log_p${old.toISOString().slice(0, 7).replace('-', '')}`;
    expect((await ds.query<{ p: string }[]>(`SELECT tableoid::regclass::text AS p FROM audit_log WHERE created_at = $1`, [old]))[0].p).toBe(month);
    // New rows get ids past the old ones (the sequence went with the table).
    const [made] = await ds.query<{ id: string }[]>(
      `INSERT INTO audit_log (actor_username, via, action, target_type, target_id, changes, created_at) VALUES ('m', 'session', 'user.updated', 'user', '1', '{}', now()) RETURNING id`,
    );
    expect(BigInt(made.id)).toBeGreaterThan(BigInt(before.rows[before.rows.length - 1].id));
  });

  it('should give the webhook and settings scopes to admin keys that held every other scope, and to no other key', async () => {
    const dataSource = t.app.get(DataSource);
    const user = await createUser(t.app, { admin: true });
    // Back to before AddWebhooks (and every migration after it).
    const applied = async () => (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((m) => m.name);
    while ((await applied()).includes('AddWebhooks1795960000000')) {
      await dataSource.undoLastMigration({ transaction: 'each' });
    }
    const all = ['servers.read', 'servers.write', 'users.read', 'users.write', 'nodes.read', 'nodes.write', 'eggs.read', 'eggs.write'];
    for (const [identifier, permissions] of [['fullkey000000001', all], ['limitedkey000001', ['servers.read']]] as const) {
      await dataSource.query(
        `INSERT INTO api_key (identifier, user_id, name, key_hash, start, permissions, expires_at, created_at) VALUES ($1, $2, $1, $3, 'abcdef', $4, now() + interval '1 day', now())`,
        [identifier, user.id, identifier.padEnd(64, '0'), permissions],
      );
    }
    await dataSource.runMigrations({ transaction: 'each' });
    const rows = await dataSource.query<{ identifier: string; permissions: string[] }[]>(`SELECT identifier, permissions FROM api_key WHERE identifier LIKE '%key0000%' ORDER BY identifier`);
    expect(rows).toEqual([
      {
        identifier: 'fullkey000000001',
        permissions: [
          ...all,
          ...['webhooks.read', 'webhooks.write', 'settings.read', 'settings.write'],
          // AddAdminRoles: the areas that were under another's scopes.
          ...['locations.read', 'mounts.read', 'backup_hosts.read', 'locations.write', 'mounts.write', 'backup_hosts.write', 'database_hosts.read', 'database_hosts.write', 'audit.read'],
        ],
      },
      { identifier: 'limitedkey000001', permissions: ['servers.read', 'database_hosts.read'] },
    ]);
  });

  if (db === 'postgres') {
    it("should run the panel's PostgreSQL connections with JIT off (compiling a list query cost more than running it)", async () => {
      const dataSource = t.app.get(DataSource);
      // Every connection of the pool, not only the first: two at once take two.
      const settings = await Promise.all([dataSource.query('SHOW jit'), dataSource.query('SHOW jit')]);
      expect(settings).toEqual([[{ jit: 'off' }], [{ jit: 'off' }]]);
    });
  }

  it('should have pg_trgm for the trigram indexes of searches and list filters', async () => {
    const rows: { extname: string }[] = await t.app.get(DataSource).query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(rows).toEqual([{ extname: 'pg_trgm' }]);
  });

  if (db === 'pglite') {
    it('should run the embedded database with small shared buffers (they live in the panel process)', async () => {
      const rows: { shared_buffers: string }[] = await t.app.get(DataSource).query('SHOW shared_buffers');
      expect(rows).toEqual([{ shared_buffers: '16MB' }]);
    });
  }
});

describe.each(dbKinds(['postgres']))('migrations at boot (%s)', () => {
  it('should migrate an empty database once when two panel processes boot on it together', async () => {
    const database = await createTestDatabase({ empty: true });
    const env = { DATABASE_URL: database.url, DB_RUN_MIGRATIONS: 'true' };
    const apps = await Promise.all([createTestApp({ env, db: 'external' }), createTestApp({ env, db: 'external' })]);
    try {
      const dataSource = apps[0].app.get(DataSource);
      const rows: { name: string }[] = await dataSource.query('SELECT name FROM migrations ORDER BY id');
      expect(rows.map((r) => r.name)).toEqual(dataSource.migrations.map((m) => m.name));
      await apps[1].http().get('/api/health').expect(200);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await database.drop();
    }
  });
});
