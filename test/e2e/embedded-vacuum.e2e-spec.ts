import { DataSource } from 'typeorm';
import { EmbeddedVacuumJob } from 'src/modules/retention/embedded-vacuum.job';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

interface TableStats {
  n_dead_tup: number;
  n_mod_since_analyze: number;
  vacuumed: boolean;
  analyzed: boolean;
  reltuples: number;
}

/**
 * The embedded database has no autovacuum; EmbeddedVacuumJob does its work by its thresholds
 * (src/modules/retention/embedded-vacuum.job.ts). Driven by its method on a real PGlite: the statistics
 * it reads are the ones PGlite keeps.
 */
describe('embedded database vacuum (pglite)', () => {
  let t: TestApp;
  let ds: DataSource;

  const stats = async (table: string): Promise<TableStats> => {
    // Table statistics reach pg_stat_user_tables at the end of the next transaction once forced.
    await ds.query('SELECT pg_stat_force_next_flush()');
    await ds.query('SELECT 1');
    const [row] = await ds.query<TableStats[]>(
      `SELECT s.n_dead_tup::int, s.n_mod_since_analyze::int, s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analyzed, c.reltuples::int
       FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = $1`,
      [table],
    );
    return row;
  };

  /** This month's partition of the audit log (migration PartitionLogsByMonth): the table the entries below go to. */
  let table: string;

  beforeAll(async () => {
    t = await createTestApp({ db: 'pglite' });
    ds = t.app.get(DataSource);
    table = (await ds.query<{ name: string }[]>(`SELECT 'audit_log_p' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMM') AS name`))[0].name;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should vacuum and analyse a table past the thresholds, and leave it alone until it changes again', async () => {
    const job = t.app.get(EmbeddedVacuumJob);
    // Settle what the migrations and the app's boot left behind, so that only this test's writes count.
    await stats(table);
    await job.sweep();
    await ds.query(
      `INSERT INTO audit_log (actor_username, via, action, target_type, target_id, changes, created_at) SELECT 'vacuum', 'system', 'egg.update', 'egg', g::text, '{}', now() FROM generate_series(1, 3000) g`,
    );
    await ds.query(`DELETE FROM audit_log WHERE actor_username = 'vacuum' AND target_id::int > 1000`);
    const before = await stats(table);
    expect(before.n_dead_tup).toBeGreaterThanOrEqual(2000);

    const outcome = await job.sweep();

    expect(outcome?.vacuumed).toContain(`public.${table}`);
    const after = await stats(table);
    expect(after).toMatchObject({ n_dead_tup: 0, n_mod_since_analyze: 0, vacuumed: true, analyzed: true });
    // The planner now knows the table's size.
    expect(after.reltuples).toBeGreaterThanOrEqual(1000);
    const again = await job.sweep();
    expect([...(again?.vacuumed ?? []), ...(again?.analyzed ?? [])]).not.toContain(`public.${table}`);
  });

  it('should only analyse a table whose rows changed without leaving enough dead ones', async () => {
    const job = t.app.get(EmbeddedVacuumJob);
    const { reltuples } = await stats(table);
    // Between the analyse threshold (50 + 10 % of the table) and the vacuum one (50 + 20 %).
    const changed = Math.round(50 + 0.15 * reltuples);
    await ds.query(`UPDATE audit_log SET changes = '{"n":1}' WHERE id IN (SELECT id FROM audit_log ORDER BY id LIMIT $1)`, [changed]);
    expect((await stats(table)).n_mod_since_analyze).toBeGreaterThanOrEqual(changed);

    const outcome = await job.sweep();

    expect(outcome?.analyzed).toContain(`public.${table}`);
    expect(outcome?.vacuumed).not.toContain(`public.${table}`);
    expect((await stats(table)).n_mod_since_analyze).toBe(0);
  });
});

describe.each(dbKinds(['postgres']))('embedded database vacuum (%s)', (db) => {
  it('should leave PostgreSQL to its own autovacuum', async () => {
    const t = await createTestApp({ db });
    try {
      expect(await t.app.get(EmbeddedVacuumJob).sweep()).toBeNull();
    } finally {
      await t.close();
    }
  });
});
