import { DataSource } from 'typeorm';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { MINUTE } from 'test/utils/fake-clock';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

// Untyped response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const SECOND = 1000;

const cron = (expression: string) => {
  const [minute, hour, day_of_month, month, day_of_week] = expression.split(' ');
  return { minute, hour, day_of_month, month, day_of_week };
};

/** The panel and two installed servers: `online` started in the simulator, `offline` never started. */
const setUp = async (db: 'postgres' | 'pglite') => {
  const p = await startSimPanel(db);
  const installed = async (name: string) => {
    const server = await p.createServer({ name });
    await p.installed(server.id);
    return server;
  };
  const online = await installed('Online');
  const offline = await installed('Offline');
  await p.asOwner('post', `/api/client/servers/${online.uuid}/power`).send({ action: 'start' }).expect(200);
  await waitFor(() => p.sim.servers.get(online.uuid)?.state === 'running');
  return { p, online, offline };
};

/** Helpers over one panel: schedules through the API, the runner, and what reached the simulator. */
const helpers = (p: SimPanel) => {
  const runner = () => p.t.app.get(ScheduleRunner);
  const ds = () => p.t.app.get(DataSource);
  const base = (uuid: string) => `/api/client/servers/${uuid}/schedules`;
  const createSchedule = async (uuid: string, body: Json, tasks: Json[]): Promise<Json> => {
    const s = (await p.asOwner('post', base(uuid)).send({ name: 'Job', cron: cron('*/5 * * * *'), ...body }).expect(201)).body.data;
    for (const task of tasks) {
      await p.asOwner('post', `${base(uuid)}/${s.id}/tasks`).send(task).expect(201);
    }
    return view(uuid, s.id);
  };
  const view = async (uuid: string, id: string): Promise<Json> => (await p.asOwner('get', `${base(uuid)}/${id}`).expect(200)).body.data;
  /** Moves the clock to `at` (never back). */
  const advanceTo = (at: string | Date) => {
    const delta = new Date(at).getTime() - p.t.clock.now().getTime();
    if (delta > 0) {
      p.t.clock.advance(delta);
    }
  };
  /** The commands the simulator received for a server after request number `from`. */
  const commandsSince = (uuid: string, from: number): string[] =>
    p.sim.requests
      .slice(from)
      .filter((r) => r.method === 'POST' && r.path === `/api/servers/${uuid}/commands`)
      .flatMap((r) => JSON.parse(r.body ?? '{}').commands as string[]);
  const powerSince = (uuid: string, from: number): string[] =>
    p.sim.requests
      .slice(from)
      .filter((r) => r.method === 'POST' && r.path === `/api/servers/${uuid}/power`)
      .map((r) => JSON.parse(r.body ?? '{}').action as string);
  /** The activity entries about one schedule, oldest first. */
  const activityOf = async (uuid: string, scheduleId: string): Promise<Json[]> =>
    (await p.asOwner('get', `/api/client/servers/${uuid}/activity?perPage=100`).expect(200)).body.data
      .filter((a: Json) => a.metadata?.schedule_id === scheduleId)
      .reverse();
  return { runner, ds, base, createSchedule, view, advanceTo, commandsSince, powerSince, activityOf };
};

/**
 * A run of three tasks whose process died after it began the first (its claim held, its progress on the
 * row): once the claim is stale the next claim runs the second and third only, with the log saying so,
 * and the run is over after that.
 */
const resumesAfterACrash = async (p: SimPanel, h: ReturnType<typeof helpers>, uuid: string): Promise<void> => {
  const s = await h.createSchedule(uuid, { name: 'Interrupted' }, [
    { action: 'command', payload: 'say one' },
    { action: 'command', payload: 'say two' },
    { action: 'command', payload: 'say three' },
  ]);
  const [first] = (await h.view(uuid, s.id)).tasks as { sequence_id: number }[];
  // The dead process had claimed it (moving its cron time on), begun the first task, and stopped there.
  const later = new Date(new Date(s.next_run_at).getTime() + 60 * MINUTE);
  await h.ds().query('UPDATE schedule SET is_processing = true, claim_token = gen_random_uuid(), processing_since = $2, run_progress = $3, next_run_at = $4 WHERE id = $1', [
    s.id,
    p.t.clock.now(),
    first.sequence_id,
    later,
  ]);
  const from = p.sim.requests.length;
  expect(await h.runner().runDue()).toBe(0);
  p.t.clock.advance(5 * MINUTE + SECOND);
  expect(await h.runner().runDue()).toBe(1);
  expect(h.commandsSince(uuid, from)).toEqual(['say two', 'say three']);
  const log = (await h.activityOf(uuid, s.id)).filter((a) => a.event.startsWith('server.schedule.run'));
  expect(log.map((a) => a.event)).toEqual(['server.schedule.run.expire', 'server.schedule.run.start', 'server.schedule.run.finish']);
  expect(log[0].metadata).toMatchObject({ resumes_after_sequence: first.sequence_id });
  expect(log[1].metadata).toMatchObject({ trigger: 'resume', resumed_after_sequence: first.sequence_id, tasks: 2 });
  expect(log[2].metadata).toMatchObject({ trigger: 'resume', status: 'completed', succeeded: 2 });
  // Over: nothing is resumed again, and its cron time is the one the dead process set.
  expect(await h.runner().runDue()).toBe(0);
  expect(h.commandsSince(uuid, from)).toHaveLength(2);
  expect(await h.view(uuid, s.id)).toMatchObject({ is_processing: false, next_run_at: later.toISOString() });
  await h.ds().query('DELETE FROM schedule WHERE id = $1', [s.id]);
};

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the schedule runner, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;
  let online: { id: string; uuid: string };
  let offline: { id: string; uuid: string };
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    ({ p, online, offline } = await setUp(db));
    h = helpers(p);
  });

  afterEach(async () => {
    // Each test starts with no schedule, so moving the clock for one never makes another due.
    await h.runner().whenIdle();
    await h.ds().query('DELETE FROM schedule');
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should run a due schedule once, its tasks in sequence order, log each step and move next_run_at on', async () => {
    const s0 = await h.createSchedule(online.uuid, { name: 'Announce' }, [
      { action: 'command', payload: 'say one' },
      { action: 'command', payload: 'say two' },
      { action: 'command', payload: 'say three' },
    ]);
    await p.asOwner('delete', `${h.base(online.uuid)}/${s0.id}/tasks/${s0.tasks[0].id}`).expect(204);
    await p.asOwner('post', `${h.base(online.uuid)}/${s0.id}/tasks`).send({ action: 'command', payload: 'say four' }).expect(201);
    const s = await h.view(online.uuid, s0.id);
    expect(s.tasks.map((t: Json) => [t.sequence_id, t.payload])).toEqual([
      [1, 'say two'],
      [2, 'say three'],
      [3, 'say four'],
    ]);

    const from = p.sim.requests.length;
    expect(await h.runner().runDue()).toBe(0);
    expect(h.commandsSince(online.uuid, from)).toEqual([]);

    h.advanceTo(s.next_run_at);
    const dueAt = p.t.clock.now().toISOString();
    expect(await h.runner().runDue()).toBe(1);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say two', 'say three', 'say four']);

    const after = await h.view(online.uuid, s.id);
    expect(after).toEqual({
      ...s,
      last_run_at: dueAt,
      next_run_at: new Date(Date.parse(s.next_run_at) + 5 * MINUTE).toISOString(),
      is_processing: false,
    });
    const log = await h.activityOf(online.uuid, s.id);
    const runLog = log.filter((a) => a.event.startsWith('server.schedule.run') || a.event.startsWith('server.schedule.task'));
    const about = { schedule_id: s.id, name: 'Announce', trigger: 'cron' };
    expect(runLog.map((a) => [a.event, a.metadata, a.actor, a.via, a.timestamp])).toEqual([
      ['server.schedule.run.start', { ...about, tasks: 3 }, null, 'schedule', dueAt],
      ...s.tasks.map((t: Json) => [
        'server.schedule.task.success',
        { schedule_id: s.id, task_id: t.id, sequence_id: t.sequence_id, action: 'command', payload: t.payload },
        null,
        'schedule',
        dueAt,
      ]),
      ['server.schedule.run.finish', { ...about, status: 'completed', succeeded: 3, failed: 0, not_run: 0 }, null, 'schedule', dueAt],
    ]);

    // The same cron time never runs twice, even when asked again at once.
    expect(await Promise.all([h.runner().runDue(), h.runner().runDue()])).toEqual([0, 0]);
    expect(h.commandsSince(online.uuid, from)).toHaveLength(3);
  });

  it("should wait each task's time_offset before it runs", async () => {
    const s = await h.createSchedule(online.uuid, {}, [
      { action: 'command', payload: 'say now' },
      { action: 'command', payload: 'say in 30s', time_offset: 30 },
      { action: 'command', payload: 'say 2 minutes later', time_offset: 120 },
    ]);
    h.advanceTo(s.next_run_at);
    const start = p.t.clock.now().getTime();
    const waits = p.t.clock.sleeps.length;
    const from = p.sim.requests.length;
    await h.runner().runDue();
    expect(p.t.clock.sleeps.slice(waits)).toEqual([30 * SECOND, 120 * SECOND]);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say now', 'say in 30s', 'say 2 minutes later']);
    const done = (await h.activityOf(online.uuid, s.id)).filter((a) => a.event === 'server.schedule.task.success');
    expect(done.map((a) => [a.metadata.payload, Date.parse(a.timestamp) - start])).toEqual([
      ['say now', 0],
      ['say in 30s', 30 * SECOND],
      ['say 2 minutes later', 150 * SECOND],
    ]);
    expect((await h.view(online.uuid, s.id)).last_run_at).toBe(new Date(start + 150 * SECOND).toISOString());
  });

  it('should stop at a failed task when it does not continue on failure', async () => {
    const s = await h.createSchedule(offline.uuid, { name: 'Stops' }, [
      { action: 'command', payload: 'say nobody hears this' },
      { action: 'power', payload: 'kill' },
    ]);
    h.advanceTo(s.next_run_at);
    const from = p.sim.requests.length;
    await h.runner().runDue();
    expect(h.commandsSince(offline.uuid, from)).toEqual(['say nobody hears this']);
    expect(h.powerSince(offline.uuid, from)).toEqual([]);
    const log = (await h.activityOf(offline.uuid, s.id)).filter((a) => a.event.startsWith('server.schedule.'));
    expect(log.map((a) => a.event)).toEqual(['server.schedule.create', 'server.schedule.run.start', 'server.schedule.task.fail', 'server.schedule.run.finish']);
    expect(log[2].metadata).toEqual({
      schedule_id: s.id,
      task_id: s.tasks[0].id,
      sequence_id: 1,
      action: 'command',
      payload: 'say nobody hears this',
      continue_on_failure: false,
      error: 'Cannot send commands to a stopped server instance.',
      code: 'DAEMON_HTTP_ERROR',
      status: 502,
    });
    expect(log[3].metadata).toEqual({ schedule_id: s.id, name: 'Stops', trigger: 'cron', status: 'failed', succeeded: 0, failed: 1, not_run: 1 });
    expect(await h.view(offline.uuid, s.id)).toMatchObject({ is_processing: false, last_run_at: p.t.clock.now().toISOString() });
  });

  it('should go on to the next task after a failed task that continues on failure', async () => {
    const s = await h.createSchedule(offline.uuid, { name: 'Continues' }, [
      { action: 'command', payload: 'say into the void', continue_on_failure: true },
      { action: 'power', payload: 'kill' },
    ]);
    h.advanceTo(s.next_run_at);
    const from = p.sim.requests.length;
    await h.runner().runDue();
    expect(h.commandsSince(offline.uuid, from)).toEqual(['say into the void']);
    expect(h.powerSince(offline.uuid, from)).toEqual(['kill']);
    const log = (await h.activityOf(offline.uuid, s.id)).filter((a) => a.event.startsWith('server.schedule.task') || a.event === 'server.schedule.run.finish');
    expect(log.map((a) => [a.event, a.metadata.sequence_id ?? null])).toEqual([
      ['server.schedule.task.fail', 1],
      ['server.schedule.task.success', 2],
      ['server.schedule.run.finish', null],
    ]);
    expect(log[2].metadata).toMatchObject({ status: 'failed', succeeded: 1, failed: 1, not_run: 0 });
  });

  it('should fail a backup task cleanly when the server allows no backups, and stop or go on as the task says', async () => {
    const stops = await h.createSchedule(online.uuid, { name: 'Backup stops' }, [
      { action: 'backup', payload: 'nightly' },
      { action: 'command', payload: 'say after the backup' },
    ]);
    const goesOn = await h.createSchedule(online.uuid, { name: 'Backup goes on' }, [
      { action: 'backup', payload: 'nightly', continue_on_failure: true },
      { action: 'command', payload: 'say after the failed backup' },
    ]);
    h.advanceTo(stops.next_run_at);
    const from = p.sim.requests.length;
    expect(await h.runner().runDue()).toBe(2);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say after the failed backup']);
    for (const s of [stops, goesOn]) {
      const fail = (await h.activityOf(online.uuid, s.id)).find((a) => a.event === 'server.schedule.task.fail');
      expect(fail?.metadata).toMatchObject({
        action: 'backup',
        payload: 'nightly',
        code: 'BACKUPS_DISABLED',
        error: 'Backups are not enabled for this server (its backup limit is 0)',
        status: 409,
      });
    }
  });

  it('should make a backup named after the task payload, and rotate the oldest at the limit', async () => {
    const server = (await p.admin('get', '/api/admin/servers').expect(200)).body.data.find((s: Json) => s.uuid === online.uuid);
    await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ backup_limit: 1 }).expect(200);
    try {
      const s = await h.createSchedule(online.uuid, { name: 'Nightly backup' }, [{ action: 'backup', payload: 'nightly' }]);
      const backups = async () => (await p.asOwner('get', `/api/client/servers/${online.uuid}/backups`).expect(200)).body.data as Json[];
      for (let run = 1; run <= 2; run += 1) {
        h.advanceTo((await h.view(online.uuid, s.id)).next_run_at);
        expect(await h.runner().runDue()).toBe(1);
        await waitFor(async () => (await backups()).every((b) => b.status === 'successful') || undefined);
        const list = await backups();
        // One backup at a time: the second run deleted the first to make room.
        expect(list.map((b) => [b.name, b.status])).toEqual([['nightly', 'successful']]);
      }
      const log = (await h.activityOf(online.uuid, s.id)).filter((a) => a.event === 'server.schedule.task.success');
      expect(log).toHaveLength(2);
    } finally {
      for (const b of (await p.asOwner('get', `/api/client/servers/${online.uuid}/backups`).expect(200)).body.data as Json[]) {
        await p.asOwner('delete', `/api/client/servers/${online.uuid}/backups/${b.id as string}`).expect(204);
      }
      await p.admin('patch', `/api/admin/servers/${server.id}/build`).send({ backup_limit: 0 }).expect(200);
    }
  });

  it('should skip the run of an only_when_online schedule while the daemon says the server is not running', async () => {
    const s = await h.createSchedule(offline.uuid, { name: 'Online only', only_when_online: true }, [{ action: 'command', payload: 'say hello' }]);
    h.advanceTo(s.next_run_at);
    const from = p.sim.requests.length;
    expect(await h.runner().runDue()).toBe(1);
    expect(h.commandsSince(offline.uuid, from)).toEqual([]);
    expect(p.sim.requests.slice(from).filter((r) => r.method === 'GET' && r.path === `/api/servers/${offline.uuid}`)).toHaveLength(1);
    const log = (await h.activityOf(offline.uuid, s.id)).filter((a) => a.event.startsWith('server.schedule.run'));
    expect(log.map((a) => [a.event, a.metadata])).toEqual([
      ['server.schedule.run.skip', { schedule_id: s.id, name: 'Online only', trigger: 'cron', reason: 'server_offline', state: 'offline' }],
    ]);
    expect(await h.view(offline.uuid, s.id)).toEqual({ ...s, next_run_at: new Date(Date.parse(s.next_run_at) + 5 * MINUTE).toISOString() });

    const running = await h.createSchedule(online.uuid, { name: 'Online only, running', only_when_online: true }, [{ action: 'command', payload: 'say online' }]);
    h.advanceTo(running.next_run_at);
    await h.runner().runDue();
    expect(h.commandsSince(online.uuid, from)).toEqual(['say online']);
  });

  it('should skip an only_when_online run when the daemon cannot be reached', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Unreachable', only_when_online: true }, [{ action: 'command', payload: 'say hi' }]);
    h.advanceTo(s.next_run_at);
    p.sim.faults.down = true;
    try {
      await h.runner().runDue();
    } finally {
      p.sim.faults.down = false;
    }
    const skip = (await h.activityOf(online.uuid, s.id)).find((a) => a.event === 'server.schedule.run.skip');
    expect(skip?.metadata).toMatchObject({ reason: 'server_state_unknown', code: 'DAEMON_UNAVAILABLE', status: 503 });
  });

  it('should never run a paused schedule, and after resuming wait for the next cron time', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Paused', is_active: false }, [{ action: 'command', payload: 'say paused' }]);
    const from = p.sim.requests.length;
    h.advanceTo(s.next_run_at);
    p.t.clock.advance(MINUTE);
    expect(await h.runner().runDue()).toBe(0);
    p.t.clock.advance(30 * MINUTE);
    expect(await h.runner().runDue()).toBe(0);
    expect(h.commandsSince(online.uuid, from)).toEqual([]);
    expect(await h.view(online.uuid, s.id)).toEqual(s);

    const resumed = (await p.asOwner('post', `${h.base(online.uuid)}/${s.id}`).send({ is_active: true }).expect(200)).body.data;
    expect(Date.parse(resumed.next_run_at)).toBeGreaterThan(p.t.clock.now().getTime());
    expect(Date.parse(resumed.next_run_at) - p.t.clock.now().getTime()).toBeLessThanOrEqual(5 * MINUTE);
    expect(await h.runner().runDue()).toBe(0);
    h.advanceTo(resumed.next_run_at);
    expect(await h.runner().runDue()).toBe(1);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say paused']);

    await p.asOwner('post', `${h.base(online.uuid)}/${s.id}`).send({ is_active: false }).expect(200);
    p.t.clock.advance(60 * MINUTE);
    expect(await h.runner().runDue()).toBe(0);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say paused']);
  });

  it('should force-run every task of a paused schedule now, leaving its cron time and state alone', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'New year', cron: cron('0 0 1 1 *'), is_active: false }, [
      { action: 'command', payload: 'say forced' },
      { action: 'command', payload: 'say forced later', time_offset: 10 },
    ]);
    const from = p.sim.requests.length;
    const started = p.t.clock.now().toISOString();
    const res = await p.asOwner('post', `${h.base(online.uuid)}/${s.id}/run`).expect(202);
    expect(res.body.data).toMatchObject({ id: s.id, is_active: false, next_run_at: s.next_run_at });
    await h.runner().whenIdle();
    expect(h.commandsSince(online.uuid, from)).toEqual(['say forced', 'say forced later']);
    const log = (await h.activityOf(online.uuid, s.id)).filter((a) => a.event !== 'server.schedule.create' && a.event !== 'server.task.create');
    expect(log.map((a) => [a.event, a.metadata.trigger ?? null, a.actor?.username ?? null])).toEqual([
      ['server.schedule.execute', null, p.owner.username],
      ['server.schedule.run.start', 'manual', null],
      ['server.schedule.task.success', null, null],
      ['server.schedule.task.success', null, null],
      ['server.schedule.run.finish', 'manual', null],
    ]);
    expect(log[0].timestamp).toBe(started);
    expect(await h.view(online.uuid, s.id)).toEqual({ ...s, last_run_at: new Date(Date.parse(started) + 10 * SECOND).toISOString() });
    // A forced run does not consume a cron time.
    expect(await h.runner().runDue()).toBe(0);
  });

  it('should let the run of a deleted schedule end quietly, its tasks gone with it', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Deleted' }, [{ action: 'command', payload: 'say x' }]);
    await p.asOwner('delete', `${h.base(online.uuid)}/${s.id}`).expect(204);
    expect((await h.ds().query('SELECT count(*)::int AS n FROM schedule_task WHERE schedule_id = $1', [s.id]))[0].n).toBe(0);
    h.advanceTo(s.next_run_at);
    const from = p.sim.requests.length;
    expect(await h.runner().runDue()).toBe(0);
    expect(h.commandsSince(online.uuid, from)).toEqual([]);
  });

  it('should consume the cron time of a schedule without tasks without logging a run', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'No tasks' }, []);
    h.advanceTo(s.next_run_at);
    expect(await h.runner().runDue()).toBe(1);
    expect(await h.view(online.uuid, s.id)).toEqual({ ...s, next_run_at: new Date(Date.parse(s.next_run_at) + 5 * MINUTE).toISOString() });
    expect((await h.activityOf(online.uuid, s.id)).map((a) => a.event)).toEqual(['server.schedule.create']);
  });

  it('should skip the runs of a suspended server', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Suspended' }, [{ action: 'command', payload: 'say x' }]);
    h.advanceTo(s.next_run_at);
    await p.admin('post', `/api/admin/servers/${online.id}/suspend`).expect(200);
    try {
      const from = p.sim.requests.length;
      await h.runner().runDue();
      expect(h.commandsSince(online.uuid, from)).toEqual([]);
    } finally {
      await p.admin('post', `/api/admin/servers/${online.id}/unsuspend`).expect(200);
    }
    const skip = (await h.activityOf(online.uuid, s.id)).find((a) => a.event === 'server.schedule.run.skip');
    expect(skip?.metadata).toEqual({ schedule_id: s.id, name: 'Suspended', trigger: 'cron', reason: 'server_suspended' });
    // Suspension stopped the server (as Wings does); start it again for the tests after this one.
    await waitFor(() => p.sim.servers.get(online.uuid)?.state === 'offline');
    await p.asOwner('post', `/api/client/servers/${online.uuid}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(online.uuid)?.state === 'running');
  });

  it('should leave a live claim alone, and release a stale one (a crashed process) so the schedule runs again', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Crashed' }, [{ action: 'command', payload: 'say recovered' }]);
    h.advanceTo(s.next_run_at);
    // Another process claimed it just now and is running it.
    await h.ds().query('UPDATE schedule SET is_processing = true, claim_token = gen_random_uuid(), processing_since = $2 WHERE id = $1', [s.id, p.t.clock.now()]);
    await h.ds().query('UPDATE schedule_task SET is_queued = true WHERE schedule_id = $1', [s.id]);
    const from = p.sim.requests.length;
    expect(await h.runner().runDue()).toBe(0);
    expect(h.commandsSince(online.uuid, from)).toEqual([]);
    expect(await h.view(online.uuid, s.id)).toMatchObject({ is_processing: true, tasks: [expect.objectContaining({ is_queued: true })] });

    // That process died: five minutes (SCHEDULER_STALE_CLAIM_SECONDS) without a word from it.
    const claimedAt = p.t.clock.now().toISOString();
    p.t.clock.advance(5 * MINUTE + SECOND);
    expect(await h.runner().runDue()).toBe(1);
    expect(h.commandsSince(online.uuid, from)).toEqual(['say recovered']);
    const log = (await h.activityOf(online.uuid, s.id)).filter((a) => a.event.startsWith('server.schedule.run'));
    expect(log.map((a) => a.event)).toEqual(['server.schedule.run.expire', 'server.schedule.run.start', 'server.schedule.run.finish']);
    expect(log[0].metadata).toEqual({ schedule_id: s.id, name: 'Crashed', processing_since: claimedAt });
    expect(await h.view(online.uuid, s.id)).toMatchObject({ is_processing: false, tasks: [expect.objectContaining({ is_queued: false })] });
  });

  it('should resume a run whose process died after the last task it began: no task twice, none dropped', async () => {
    await resumesAfterACrash(p, h, online.uuid);
  });

  it('should release a stale claim of a schedule that is not due, so it does not show as processing forever', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Stuck', cron: cron('0 0 1 1 *') }, [{ action: 'command', payload: 'say x' }]);
    await h.ds().query('UPDATE schedule SET is_processing = true, claim_token = gen_random_uuid(), processing_since = $2 WHERE id = $1', [
      s.id,
      new Date(p.t.clock.now().getTime() - 6 * MINUTE),
    ]);
    expect(await h.runner().runDue()).toBe(0);
    expect(await h.view(online.uuid, s.id)).toEqual(s);
  });

  describe('task permissions: a schedule does only what its caller may do by hand', () => {
    const SCHEDULE_ONLY = ['server.schedule.read', 'server.schedule.create', 'server.schedule.update', 'server.schedule.delete'];
    const KINDS = [
      { action: 'command', payload: 'say by subuser', permission: 'server.console' },
      { action: 'power', payload: 'start', permission: 'server.power' },
      { action: 'backup', payload: 'by subuser', permission: 'server.backup.create' },
    ] as const;
    const ALL_TASK_PERMISSIONS = KINDS.map((k) => k.permission);
    const denied = (action: string, permission: string) => ({
      statusCode: 403,
      code: 'SERVER_PERMISSION_DENIED',
      message: `A ${action} task requires the ${permission} permission on this server`,
      details: { action, permission },
      requestId: expect.any(String),
    });
    /** A new account made a subuser of `online` with these permissions. */
    const subuser = async (permissions: string[]) => {
      const account = await p.newUser();
      const id = (await p.asOwner('post', `/api/client/servers/${online.uuid}/users`).send({ email: account.user.email, permissions }).expect(201)).body.data.id;
      return { ...account, id: id as string };
    };

    it('should refuse each task kind to a subuser holding only schedule permissions, and create it for one holding its permission', async () => {
      const s = await h.createSchedule(online.uuid, { name: 'Delegated' }, []);
      const tasks = `${h.base(online.uuid)}/${s.id}/tasks`;
      const scheduleOnly = await subuser(SCHEDULE_ONLY);
      for (const { action, payload, permission } of KINDS) {
        const res = await scheduleOnly.as('post', tasks).send({ action, payload }).expect(403);
        expect(res.body).toEqual(denied(action, permission));
      }
      expect((await h.view(online.uuid, s.id)).tasks).toEqual([]);

      for (const { action, payload, permission } of KINDS) {
        const holder = await subuser([...SCHEDULE_ONLY, permission]);
        await holder.as('post', tasks).send({ action, payload }).expect(201);
      }
      // Owners and administrators hold every permission.
      await p.asOwner('post', tasks).send({ action: 'power', payload: 'kill' }).expect(201);
      await p.admin('post', tasks).send({ action: 'backup', payload: 'by admin' }).expect(201);
      expect((await h.view(online.uuid, s.id)).tasks.map((t: Json) => t.action)).toEqual(['command', 'power', 'backup', 'power', 'backup']);
    });

    it('should refuse to force-run a schedule to a caller lacking the permission of any of its tasks, and run it for one holding them all', async () => {
      const s = await h.createSchedule(online.uuid, { name: 'Mixed', cron: cron('0 0 1 1 *') }, KINDS.map(({ action, payload }) => ({ action, payload, continue_on_failure: true })));
      const run = `${h.base(online.uuid)}/${s.id}/run`;
      const from = p.sim.requests.length;
      const scheduleOnly = await subuser(SCHEDULE_ONLY);
      expect((await scheduleOnly.as('post', run).expect(403)).body).toEqual(denied('command', 'server.console'));
      const noBackup = await subuser([...SCHEDULE_ONLY, 'server.console', 'server.power']);
      expect((await noBackup.as('post', run).expect(403)).body).toEqual(denied('backup', 'server.backup.create'));
      await h.runner().whenIdle();
      expect(h.commandsSince(online.uuid, from)).toEqual([]);
      expect(h.powerSince(online.uuid, from)).toEqual([]);
      expect((await h.activityOf(online.uuid, s.id)).map((a) => a.event)).not.toContain('server.schedule.execute');
      expect(await h.view(online.uuid, s.id)).toEqual(s);

      const holder = await subuser([...SCHEDULE_ONLY, ...ALL_TASK_PERMISSIONS]);
      await holder.as('post', run).expect(202);
      await h.runner().whenIdle();
      expect(h.commandsSince(online.uuid, from)).toEqual(['say by subuser']);
      expect(h.powerSince(online.uuid, from)).toEqual(['start']);
      await p.admin('post', run).expect(202);
      await h.runner().whenIdle();
      expect(h.powerSince(online.uuid, from)).toEqual(['start', 'start']);
    });

    it("should keep running on cron the tasks of an author who lost a permission, but check a force run and an edit that widens the runs against the caller's permissions now", async () => {
      const author = await subuser([...SCHEDULE_ONLY, 'server.power']);
      const base = h.base(online.uuid);
      const s = (await author.as('post', base).send({ name: 'Keep alive', cron: cron('*/5 * * * *') }).expect(201)).body.data;
      await author.as('post', `${base}/${s.id}/tasks`).send({ action: 'power', payload: 'start' }).expect(201);
      await p.asOwner('post', `/api/client/servers/${online.uuid}/users/${author.id}`).send({ permissions: SCHEDULE_ONLY }).expect(200);

      expect((await author.as('post', `${base}/${s.id}/run`).expect(403)).body).toEqual(denied('power', 'server.power'));
      // Renaming or pausing does not make the tasks run; a new cron time or resuming does.
      await author.as('post', `${base}/${s.id}`).send({ name: 'Renamed', cron: cron('*/5 * * * *'), is_active: true }).expect(200);
      expect((await author.as('post', `${base}/${s.id}`).send({ cron: cron('* * * * *') }).expect(403)).body).toEqual(denied('power', 'server.power'));
      await author.as('post', `${base}/${s.id}`).send({ is_active: false }).expect(200);
      expect((await author.as('post', `${base}/${s.id}`).send({ is_active: true }).expect(403)).body).toEqual(denied('power', 'server.power'));
      await p.asOwner('post', `${base}/${s.id}`).send({ is_active: true }).expect(200);

      const due = await h.view(online.uuid, s.id);
      expect(due).toMatchObject({ name: 'Renamed', cron: '*/5 * * * *', is_active: true });
      const from = p.sim.requests.length;
      h.advanceTo(due.next_run_at);
      expect(await h.runner().runDue()).toBe(1);
      expect(h.powerSince(online.uuid, from)).toEqual(['start']);
    });
  });
});

(hasPaper ? describe : describe.skip).each(dbKinds(['pglite']))('the schedule runner on the embedded database (%s)', (db) => {
  let p: SimPanel;
  let online: { id: string; uuid: string };
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    ({ p, online } = await setUp(db));
    h = helpers(p);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should resume a run whose process died after the last task it began, as on PostgreSQL', async () => {
    await resumesAfterACrash(p, h, online.uuid);
  });

  it('should claim, run, force-run and release claims as on PostgreSQL', async () => {
    const s = await h.createSchedule(online.uuid, { name: 'Embedded' }, [
      { action: 'command', payload: 'say a' },
      { action: 'command', payload: 'say b', time_offset: 5 },
    ]);
    const from = p.sim.requests.length;
    h.advanceTo(s.next_run_at);
    expect(await Promise.all([h.runner().runDue(), h.runner().runDue()])).toEqual(expect.arrayContaining([0, 1]));
    expect(h.commandsSince(online.uuid, from)).toEqual(['say a', 'say b']);
    await p.asOwner('post', `${h.base(online.uuid)}/${s.id}/run`).expect(202);
    await h.runner().whenIdle();
    expect(h.commandsSince(online.uuid, from)).toEqual(['say a', 'say b', 'say a', 'say b']);
    expect(await h.view(online.uuid, s.id)).toMatchObject({ is_processing: false, last_run_at: p.t.clock.now().toISOString() });
  });
});
