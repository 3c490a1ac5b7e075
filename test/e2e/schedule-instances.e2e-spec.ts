import { DataSource } from 'typeorm';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const SCHEDULES = 50;

// Two panel processes (two Nest apps, two connection pools) on one PostgreSQL database and one
// Wings node. Claims are made four at a time so the two processes take turns on the rows.
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('schedules across two panel processes on one database (%s)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let p: SimPanel;
  let second: TestApp;
  let uuid: string;

  const runners = () => [p.t.app.get(ScheduleRunner), second.app.get(ScheduleRunner)];
  const ds = () => p.t.app.get(DataSource);
  const advanceBoth = (ms: number) => {
    p.t.clock.advance(ms);
    second.clock.advance(p.t.clock.now().getTime() - second.clock.now().getTime());
  };
  /** How many times the simulator was told to run each `say run-<n>` command. */
  const commandCounts = (): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const r of p.sim.requests.filter((q) => q.method === 'POST' && q.path === `/api/servers/${uuid}/commands`)) {
      for (const command of JSON.parse(r.body ?? '{}').commands as string[]) {
        counts.set(command, (counts.get(command) ?? 0) + 1);
      }
    }
    return counts;
  };
  const expected = (times: number) => new Map(Array.from({ length: SCHEDULES }, (_, i) => [`say run-${i}`, times]));
  /** Run starts in the activity log, per schedule. */
  const runStarts = async (): Promise<Map<string, number>> => {
    const rows: { id: string; n: number }[] = await ds().query(
      `SELECT metadata->>'name' AS id, count(*)::int AS n FROM server_activity WHERE event = 'server.schedule.run.start' GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  };
  const expectedStarts = (times: number) => new Map(Array.from({ length: SCHEDULES }, (_, i) => [`every minute ${i}`, times]));
  /** Both processes call runDue twice, all four calls at once; returns how many runs each call claimed. */
  const race = async (): Promise<number[]> => {
    const [a, b] = runners();
    return Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
  };
  const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, DB_RUN_MIGRATIONS: 'false', SCHEDULER_BATCH_SIZE: '4' };
    p = await startSimPanel('external', { env });
    second = await createTestApp({ db: 'external', env });
    advanceBoth(0);
    const server = await p.createServer({ name: 'Busy' });
    uuid = server.uuid;
    await p.installed(server.id);
    await p.asOwner('post', `/api/client/servers/${uuid}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(uuid)?.state === 'running');

    const base = `/api/client/servers/${uuid}/schedules`;
    for (let chunk = 0; chunk < SCHEDULES; chunk += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const i = chunk + k;
          const cron = { minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };
          const s = (await p.asOwner('post', base).send({ name: `every minute ${i}`, cron }).expect(201)).body.data;
          await p.asOwner('post', `${base}/${s.id}/tasks`).send({ action: 'command', payload: `say run-${i}` }).expect(201);
        }),
      );
    }
  });

  afterAll(async () => {
    await Promise.all(runners().map((r) => r.whenIdle()));
    await p?.close();
    await second?.close();
    await database?.drop();
  });

  it('should have both processes see the same schedules', async () => {
    const [a, b] = await Promise.all([
      p.t.app.get(DataSource).query('SELECT count(*)::int AS n FROM schedule'),
      second.app.get(DataSource).query('SELECT count(*)::int AS n FROM schedule'),
    ]);
    expect([a[0].n, b[0].n]).toEqual([SCHEDULES, SCHEDULES]);
    expect(commandCounts()).toEqual(new Map());
  });

  it('should run each of 50 due schedules exactly once while two processes race for them, and again at the next minute', async () => {
    advanceBoth(MINUTE);
    const first = await race();
    expect(sum(first)).toBe(SCHEDULES);
    expect(commandCounts()).toEqual(expected(1));
    expect(await runStarts()).toEqual(expectedStarts(1));

    // Asking again within the same minute finds nothing due.
    expect(sum(await race())).toBe(0);

    advanceBoth(MINUTE);
    const next = await race();
    expect(sum(next)).toBe(SCHEDULES);
    expect(commandCounts()).toEqual(expected(2));
    expect(await runStarts()).toEqual(expectedStarts(2));
    const finished: { status: string; n: number }[] = await ds().query(
      `SELECT metadata->>'status' AS status, count(*)::int AS n FROM server_activity WHERE event = 'server.schedule.run.finish' GROUP BY 1`,
    );
    expect(finished).toEqual([{ status: 'completed', n: 2 * SCHEDULES }]);
    const processing = await ds().query('SELECT count(*)::int AS n FROM schedule WHERE is_processing');
    expect(processing[0].n).toBe(0);
  });

  it('should pass over due schedules another claimer holds locked, without waiting, and run them once the lock is gone', async () => {
    advanceBoth(MINUTE);
    const holder = ds().createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      const locked: { name: string }[] = await holder.query('SELECT name FROM schedule ORDER BY id LIMIT 10 FOR UPDATE');
      expect(sum(await race())).toBe(SCHEDULES - 10);
      const counts = commandCounts();
      const heldBack = new Set(locked.map((l) => `say run-${l.name.replace('every minute ', '')}`));
      for (const [command, n] of expected(3)) {
        expect([command, counts.get(command)]).toEqual([command, heldBack.has(command) ? 2 : n]);
      }
      await holder.rollbackTransaction();
    } finally {
      await holder.release();
    }
    expect(sum(await race())).toBe(10);
    expect(commandCounts()).toEqual(expected(3));
  });
});
