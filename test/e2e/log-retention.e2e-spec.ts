import { DataSource } from 'typeorm';
import { LogRetentionCron } from 'src/modules/retention/log-retention.cron';
import { signIn } from 'test/utils/auth';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { createLogFixture, LogFixture } from 'test/utils/log-fixture';
import { dbKinds } from 'test/utils/test-db';

const DAY = 86_400_000;

/**
 * Retention (docs/configuration.md#log-retention): one sweep deletes, per category and as configured,
 * the entries older than that category keeps, in batches, and the lists' totals follow. The sweep is
 * driven by its method, with the app's hand-moved clock.
 */
describe.each(dbKinds(['postgres', 'pglite']))('log retention (%s)', (db) => {
  let f: LogFixture;
  let ds: DataSource;

  const get = (path: string) => f.get(path);
  const daysAgo = (days: number) => new Date(f.t.clock.now().getTime() - days * DAY - 60_000);
  const audit = (action: string, days: number): Promise<void> => f.audit(action, daysAgo(days));
  const act = (event: string, days: number): Promise<void> => f.act(event, daysAgo(days));
  const actions = async (): Promise<string[]> =>
    (await ds.query<{ action: string }[]>(`SELECT action FROM audit_log WHERE action LIKE 'user.%' OR action LIKE 'egg.%' OR action = 'node.token_reset' ORDER BY action, created_at`)).map((r) => r.action);
  const events = async (): Promise<string[]> =>
    (await ds.query<{ event: string }[]>(`SELECT event FROM server_activity WHERE server_id = $1 ORDER BY event, created_at`, [f.serverId])).map((r) => r.event);

  beforeAll(async () => {
    f = await createLogFixture(db, {
      AUDIT_RETENTION_DAYS: '10',
      AUDIT_SECURITY_RETENTION_DAYS: '100',
      ACTIVITY_RETENTION_DAYS: '5',
      ACTIVITY_SECURITY_RETENTION_DAYS: '50',
      ACTIVITY_CONSOLE_RETENTION_DAYS: '0',
      // Small batches, so that a sweep takes several.
      LOG_RETENTION_BATCH_SIZE: '2',
    });
    ds = f.ds;
  });

  afterAll(async () => {
    await f?.t.close();
  });

  it('should delete each category past its own retention, keep the rest, and keep the totals exact', async () => {
    // Audit: security (user.*, node.token_reset) keeps 100 days, the rest 10.
    for (const days of [1, 50, 150, 200]) {
      await audit('user.password_changed', days);
    }
    await audit('node.token_reset', 150);
    await audit('node.token_reset', 20);
    for (const days of [1, 9, 11, 12, 30]) {
      await audit('egg.updated', days);
    }
    // Activity: security (subusers, SFTP) 50 days, console 0 (for ever), the rest 5.
    for (const days of [1, 40, 60]) {
      await act('server.subuser.create', days);
    }
    await act('server.sftp.denied', 70);
    for (const days of [1, 400]) {
      await act('server.console.command', days);
    }
    for (const days of [1, 4, 6, 7, 8]) {
      await act('server.file.write', days);
    }
    // A name that only looks like a category's under LIKE's wildcards is not in it.
    await act('server_subuser.x', 60);

    const outcome = await f.t.app.get(LogRetentionCron).sweep();
    expect(outcome).toEqual({ audit: { security: 3, other: 3 }, activity: { security: 2, console: 0, other: 4 }, droppedPartitions: [] });
    expect(await actions()).toEqual(['egg.updated', 'egg.updated', 'node.token_reset', 'user.password_changed', 'user.password_changed']);
    expect(await events()).toEqual([
      'server.console.command',
      'server.console.command',
      'server.file.write',
      'server.file.write',
      'server.subuser.create',
      'server.subuser.create',
    ]);

    const count = async (sql: string, params: unknown[] = []) => Number((await ds.query<{ n: number }[]>(sql, params))[0].n);
    expect((await get('/api/admin/audit-logs?perPage=1').expect(200)).body.meta.pagination.total).toBe(await count('SELECT count(*)::int AS n FROM audit_log'));
    expect((await get(`${f.activity}?perPage=1`).expect(200)).body.meta.pagination.total).toBe(6);

    // Nothing is left to delete until time moves on.
    expect(await f.t.app.get(LogRetentionCron).sweep()).toEqual({ audit: { security: 0, other: 0 }, activity: { security: 0, console: 0, other: 0 }, droppedPartitions: [] });
    f.t.clock.advance(3 * DAY);
    expect((await f.t.app.get(LogRetentionCron).sweep())?.activity).toEqual({ security: 0, console: 0, other: 1 });
    expect((await get(`${f.activity}?perPage=1`).expect(200)).body.meta.pagination.total).toBe(5);
  });
});

/**
 * The logs' months (migration PartitionLogsByMonth, src/database/log-partitions.ts): a month past
 * the longest retention of a log's categories is dropped whole, its entries leave the totals, and the
 * months ahead are made.
 */
describe.each(dbKinds(['postgres', 'pglite']))('log retention by month (%s)', (db) => {
  let f: LogFixture;

  const month = (at: Date): string => at.toISOString().slice(0, 7).replace('-', '');
  const partitionsOf = async (table: string): Promise<string[]> =>
    (
      await f.ds.query<{ name: string }[]>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [table],
      )
    ).map((r) => r.name);
  const count = async (sql: string, params: unknown[] = []) => Number((await f.ds.query<{ n: number }[]>(sql, params))[0].n);

  beforeAll(async () => {
    // Every category kept for a while: the audit log's longest is 100 days, the activity log's 50.
    f = await createLogFixture(db, {
      AUDIT_RETENTION_DAYS: '10',
      AUDIT_SECURITY_RETENTION_DAYS: '100',
      ACTIVITY_RETENTION_DAYS: '5',
      ACTIVITY_SECURITY_RETENTION_DAYS: '50',
      ACTIVITY_CONSOLE_RETENTION_DAYS: '30',
    });
  });

  afterAll(async () => {
    await f?.t.close();
  });

  it('should drop the months past the longest retention whole, keep the totals exact, and make the months ahead', async () => {
    const start = f.t.clock.now();
    const current = month(start);
    // The migration made this month and two ahead; the entries of now are in this month's partition.
    expect(await partitionsOf('audit_log')).toEqual(expect.arrayContaining(['audit_log_default', `audit_log_p${current}`]));
    await f.audit('user.password_changed', start);
    await f.act('server.console.command', start);
    await f.act('server.subuser.create', start);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log_p${current} WHERE action = 'user.password_changed'`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM server_activity_p${current} WHERE server_id = $1`, [f.serverId])).toBe(2);

    // 200 days on: this month and the two after it are wholly past 100 days (audit) and 50 (activity).
    f.t.clock.advance(200 * DAY);
    const now = f.t.clock.now();
    const outcome = await f.t.app.get(LogRetentionCron).sweep();
    const gone = [0, 1, 2].map((k) => month(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k, 1))));
    expect(outcome?.droppedPartitions.sort()).toEqual([...gone.map((m) => `audit_log_p${m}`), ...gone.map((m) => `server_activity_p${m}`)].sort());
    // Dropped whole: no row was left for the row-by-row deletes.
    expect(outcome).toMatchObject({ audit: { security: 0, other: 0 }, activity: { security: 0, console: 0, other: 0 } });
    expect(await count(`SELECT count(*)::int AS n FROM server_activity WHERE server_id = $1`, [f.serverId])).toBe(0);
    // (the session of 200 days ago has expired)
    const cookie = await signIn(f.t, f.admin.email);
    const get = (path: string) => f.t.http().get(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    expect((await get('/api/admin/audit-logs?perPage=1').expect(200)).body.meta.pagination.total).toBe(await count('SELECT count(*)::int AS n FROM audit_log'));
    expect((await get(`${f.activity}?perPage=1`).expect(200)).body.meta.pagination.total).toBe(0);
    // The server's count slots went with its last entries, as a delete's trigger does.
    expect(await count(`SELECT count(*)::int AS n FROM server_activity_count WHERE server_id = $1`, [f.serverId])).toBe(0);

    // The months of the clock's now are made, and take its entries.
    expect(await partitionsOf('server_activity')).toEqual(expect.arrayContaining([`server_activity_p${month(now)}`]));
    await f.act('server.file.write', now);
    expect(await count(`SELECT count(*)::int AS n FROM server_activity_p${month(now)} WHERE server_id = $1`, [f.serverId])).toBe(1);
    expect((await get(`${f.activity}?perPage=1`).expect(200)).body.meta.pagination.total).toBe(1);
  });
});
