import { DataSource } from 'typeorm';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

// Untyped response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const DECIMAL_ID = /^[1-9]\d*$/;
const REQUEST_ID = expect.any(String);

const cron = (expression: string) => {
  const [minute, hour, day_of_month, month, day_of_week] = expression.split(' ');
  return { minute, hour, day_of_month, month, day_of_week };
};

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('schedules and tasks API (%s)', (db) => {
  let p: SimPanel;
  let uuid: string;
  let serverId: string;
  let base: string;

  const ds = () => p.t.app.get(DataSource);
  const count = async (sql: string, params: unknown[] = []): Promise<number> => (await ds().query<{ n: number }[]>(sql, params))[0].n;
  const activity = async (event: string): Promise<Json[]> =>
    (await p.asOwner('get', `/api/client/servers/${uuid}/activity?perPage=100`).expect(200)).body.data.filter((a: Json) => a.event === event);
  const createSchedule = async (body: Json = {}): Promise<Json> =>
    (await p.asOwner('post', base).send({ name: 'Nightly', cron: cron('0 4 * * *'), ...body }).expect(201)).body.data;
  const createTask = async (scheduleId: string, body: Json): Promise<Json> =>
    (await p.asOwner('post', `${base}/${scheduleId}/tasks`).send(body).expect(201)).body.data;
  /** The 400 body of a request, with only the fields of its details named. */
  const invalid = async (method: 'post', path: string, body: Json): Promise<Json> => {
    const res = await p.asOwner(method, path).send(body).expect(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details: expect.any(Array), requestId: REQUEST_ID });
    return res.body;
  };

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer({ name: 'Scheduled' });
    ({ uuid, id: serverId } = server);
    await p.installed(serverId);
    base = `/api/client/servers/${uuid}/schedules`;
  });

  afterAll(async () => {
    await p?.close();
  });

  describe('schedules', () => {
    it('should create a schedule with the cron as a five-field string, its next run in UTC and an activity entry', async () => {
      const now = p.t.clock.now();
      const res = await p.asOwner('post', base).send({ name: 'Restart', cron: cron('*/5 * * * 1-5'), is_active: true, only_when_online: true }).expect(201);
      const expectedNext = new Date(now);
      expectedNext.setUTCSeconds(0, 0);
      do {
        expectedNext.setTime(expectedNext.getTime() + MINUTE);
      } while (expectedNext.getUTCMinutes() % 5 !== 0 || ![1, 2, 3, 4, 5].includes(expectedNext.getUTCDay()));
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(DECIMAL_ID),
          name: 'Restart',
          cron: '*/5 * * * 1-5',
          is_active: true,
          is_processing: false,
          only_when_online: true,
          last_run_at: null,
          next_run_at: expectedNext.toISOString(),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          tasks: [],
        },
      });
      expect(await activity('server.schedule.create')).toContainEqual(
        expect.objectContaining({
          actor: { id: expect.any(String), username: p.owner.username },
          metadata: { schedule_id: res.body.data.id, name: 'Restart', cron: '*/5 * * * 1-5' },
          via: 'session',
        }),
      );
    });

    it('should default is_active to true and only_when_online to false, and read JSON integers in the cron as their digits', async () => {
      const created = await createSchedule({ cron: { minute: 30, hour: 2, day_of_month: '*', month: '*', day_of_week: 0 } });
      expect(created).toMatchObject({ cron: '30 2 * * 0', is_active: true, only_when_online: false });
      expect(new Date(created.next_run_at).getUTCDay()).toBe(0);
      expect(created.next_run_at).toMatch(/T02:30:00\.000Z$/);
    });

    it('should refuse each bad cron field with a 400 that names the field', async () => {
      const body = await invalid('post', base, { name: 'x', cron: { minute: '60', hour: '*/0', day_of_month: '32', month: 'jan', day_of_week: '8' } });
      expect(body.details).toEqual([
        { field: 'cron.minute', message: expect.stringMatching(/^minute must be \*, a number from 0 to 59, .*got "60"/) },
        { field: 'cron.hour', message: expect.stringMatching(/^hour must be .*cannot repeat at every 0 time/) },
        { field: 'cron.day_of_month', message: expect.stringMatching(/^day_of_month must be \*, a number from 1 to 31, .*got "32"/) },
        { field: 'cron.month', message: expect.stringMatching(/^month must be .*got "jan"$/) },
        { field: 'cron.day_of_week', message: expect.stringMatching(/^day_of_week must be \*, a number from 0 to 7, .*got "8"/) },
      ]);
    });

    it('should refuse a missing field, an unknown field, a cron that is not an object and one that never matches', async () => {
      const missing = await invalid('post', base, { name: 'x', cron: { minute: '0', hour: '0', day_of_month: '*', month: '*' } });
      expect(missing.details).toEqual([{ field: 'cron.day_of_week', message: 'day_of_week is required' }]);
      const unknown = await invalid('post', base, { name: 'x', cron: { ...cron('0 0 * * *'), second: '0' } });
      expect(unknown.details).toEqual([{ field: 'cron.second', message: 'property second should not exist' }]);
      const text = await invalid('post', base, { name: 'x', cron: '0 0 * * *' });
      expect(text.details).toEqual([{ field: 'cron', message: 'cron must be an object' }]);
      const never = await invalid('post', base, { name: 'x', cron: cron('0 0 30 2 *') });
      expect(never.details).toEqual([{ field: 'cron', message: expect.stringMatching(/^The expression "0 0 30 2 \*" never matches a date/) }]);
      const rest = await invalid('post', base, { cron: cron('* * * * *'), is_active: 'yes', colour: 'red' });
      expect(rest.details).toEqual([
        { field: 'colour', message: 'property colour should not exist' },
        { field: 'name', message: 'name must be a string' },
        { field: 'is_active', message: 'is_active must be a boolean value' },
      ]);
    });

    it('should list the schedules with their tasks in sequence order, paginated, and show one', async () => {
      const a = await createSchedule({ name: 'List A' });
      await createTask(a.id, { action: 'command', payload: 'say one' });
      await createTask(a.id, { action: 'power', payload: 'restart', time_offset: 60 });
      const list = await p.asOwner('get', `${base}?perPage=100`).expect(200);
      const listed = list.body.data.find((s: Json) => s.id === a.id);
      expect(listed.tasks.map((t: Json) => [t.sequence_id, t.action, t.payload, t.time_offset])).toEqual([
        [1, 'command', 'say one', 0],
        [2, 'power', 'restart', 60],
      ]);
      expect(list.body.meta.pagination).toEqual({ total: list.body.data.length, count: list.body.data.length, perPage: 100, currentPage: 1, totalPages: 1 });
      const one = await p.asOwner('get', `${base}/${a.id}`).expect(200);
      expect(one.body).toEqual({ data: listed });
      const page = await p.asOwner('get', `${base}?perPage=1&page=2`).expect(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.meta.pagination).toMatchObject({ perPage: 1, currentPage: 2, total: list.body.data.length });
    });

    it('should answer 404 for a schedule that does not exist, is not a number, or belongs to another server', async () => {
      const other = await p.createServer({ name: 'Other' });
      await p.installed(other.id);
      const foreign = (
        await p.asOwner('post', `/api/client/servers/${other.uuid}/schedules`).send({ name: 'Theirs', cron: cron('0 0 * * *') }).expect(201)
      ).body.data;
      for (const id of ['999999', 'abc', '0', foreign.id]) {
        const res = await p.asOwner('get', `${base}/${id}`).expect(404);
        expect(res.body).toEqual({ statusCode: 404, code: 'SCHEDULE_NOT_FOUND', message: 'Schedule not found', requestId: REQUEST_ID });
      }
      await p.asOwner('post', `${base}/${foreign.id}`).send({ name: 'Mine now' }).expect(404);
      await p.asOwner('delete', `${base}/${foreign.id}`).expect(404);
      await p.asOwner('post', `${base}/${foreign.id}/tasks`).send({ action: 'command', payload: 'x' }).expect(404);
      await p.asOwner('post', `${base}/${foreign.id}/run`).expect(404);
      expect((await p.asOwner('get', `/api/client/servers/${other.uuid}/schedules/${foreign.id}`).expect(200)).body.data.name).toBe('Theirs');
    });

    it('should update name, cron and state, working next_run_at out again from now, with an activity entry', async () => {
      const s = await createSchedule({ name: 'Edit me', cron: cron('0 0 1 1 *') });
      p.t.clock.advance(90 * MINUTE);
      const now = p.t.clock.now();
      const res = await p.asOwner('post', `${base}/${s.id}`).send({ name: 'Edited', cron: cron('15 * * * *'), is_active: false }).expect(200);
      const next = new Date(now);
      next.setUTCMinutes(15, 0, 0);
      if (next <= now) {
        next.setTime(next.getTime() + 60 * MINUTE);
      }
      expect(res.body).toEqual({
        data: { ...s, name: 'Edited', cron: '15 * * * *', is_active: false, next_run_at: next.toISOString(), updated_at: now.toISOString() },
      });
      const renamed = await p.asOwner('post', `${base}/${s.id}`).send({ name: 'Only the name' }).expect(200);
      expect(renamed.body.data).toMatchObject({ name: 'Only the name', cron: '15 * * * *', is_active: false });
      expect(await activity('server.schedule.update')).toContainEqual(
        expect.objectContaining({ metadata: { schedule_id: s.id, name: 'Edited', cron: '15 * * * *', is_active: false } }),
      );
      const bad = await invalid('post', `${base}/${s.id}`, { cron: cron('0 24 * * *'), only_when_online: 1 });
      expect(bad.details).toEqual([
        { field: 'cron.hour', message: expect.stringMatching(/^hour must be .*got "24"/) },
        { field: 'only_when_online', message: 'only_when_online must be a boolean value' },
      ]);
      await invalid('post', `${base}/${s.id}`, { name: null });
    });

    it('should delete a schedule and its tasks, with an activity entry', async () => {
      const s = await createSchedule({ name: 'Doomed' });
      await createTask(s.id, { action: 'command', payload: 'say bye' });
      await createTask(s.id, { action: 'command', payload: 'say bye again' });
      expect(await count('SELECT count(*)::int AS n FROM schedule_task WHERE schedule_id = $1', [s.id])).toBe(2);
      const res = await p.asOwner('delete', `${base}/${s.id}`).expect(204);
      expect(res.body).toEqual({});
      await p.asOwner('get', `${base}/${s.id}`).expect(404);
      expect(await count('SELECT count(*)::int AS n FROM schedule_task WHERE schedule_id = $1', [s.id])).toBe(0);
      expect(await activity('server.schedule.delete')).toContainEqual(expect.objectContaining({ metadata: { schedule_id: s.id, name: 'Doomed' } }));
    });
  });

  describe('tasks', () => {
    it('should create tasks with sequence ids in creation order and return each as written', async () => {
      const s = await createSchedule({ name: 'Tasks' });
      const now = p.t.clock.now().toISOString();
      const first = await p.asOwner('post', `${base}/${s.id}/tasks`).send({ action: 'command', payload: 'say hi', time_offset: 0 }).expect(201);
      expect(first.body).toEqual({
        data: {
          id: expect.stringMatching(DECIMAL_ID),
          sequence_id: 1,
          action: 'command',
          payload: 'say hi',
          time_offset: 0,
          continue_on_failure: false,
          is_queued: false,
          created_at: now,
          updated_at: now,
        },
      });
      const second = await createTask(s.id, { action: 'power', payload: 'kill', time_offset: 3600, continue_on_failure: true });
      const third = await createTask(s.id, { action: 'backup' });
      expect([second, third].map((t) => [t.sequence_id, t.action, t.payload, t.time_offset, t.continue_on_failure])).toEqual([
        [2, 'power', 'kill', 3600, true],
        [3, 'backup', '', 0, false],
      ]);
      expect(await activity('server.task.create')).toContainEqual(
        expect.objectContaining({ metadata: { schedule_id: s.id, task_id: second.id, action: 'power', payload: 'kill' } }),
      );
    });

    it('should refuse a bad action, payload, time_offset or continue_on_failure, naming the field', async () => {
      const s = await createSchedule({ name: 'Validation' });
      const path = `${base}/${s.id}/tasks`;
      expect((await invalid('post', path, { action: 'reboot', payload: 'x' })).details).toEqual([
        { field: 'action', message: 'action must be one of the following values: command, power, backup' },
      ]);
      expect((await invalid('post', path, { action: 'power', payload: 'restart-now' })).details).toEqual([
        { field: 'payload', message: 'payload must be one of the following values: start, stop, restart, kill' },
      ]);
      expect((await invalid('post', path, { action: 'command', payload: '   ' })).details).toEqual([{ field: 'payload', message: 'payload must be the command to send' }]);
      expect((await invalid('post', path, { action: 'command' })).details).toEqual([{ field: 'payload', message: 'payload must be the command to send' }]);
      expect((await invalid('post', path, { action: 'backup', payload: 7 })).details).toEqual([{ field: 'payload', message: 'payload must be the backup name' }]);
      for (const [offset, message] of [
        [3601, 'time_offset must not be greater than 3600'],
        [-1, 'time_offset must not be less than 0'],
        [1.5, 'time_offset must be an integer number'],
        ['10', 'time_offset must be an integer number'],
      ] as const) {
        expect((await invalid('post', path, { action: 'command', payload: 'x', time_offset: offset })).details).toEqual([{ field: 'time_offset', message }]);
      }
      expect((await invalid('post', path, { action: 'command', payload: 'x', continue_on_failure: 'yes', sequence_id: 4 })).details).toEqual([
        { field: 'sequence_id', message: 'property sequence_id should not exist' },
        { field: 'continue_on_failure', message: 'continue_on_failure must be a boolean value' },
      ]);
      expect(await count('SELECT count(*)::int AS n FROM schedule_task WHERE schedule_id = $1', [s.id])).toBe(0);
    });

    it('should stop at 10 tasks a schedule with 409', async () => {
      const s = await createSchedule({ name: 'Full' });
      for (let i = 1; i <= 10; i++) {
        await createTask(s.id, { action: 'command', payload: `say ${i}` });
      }
      const res = await p.asOwner('post', `${base}/${s.id}/tasks`).send({ action: 'command', payload: 'say 11' }).expect(409);
      expect(res.body).toEqual({
        statusCode: 409,
        code: 'SCHEDULE_TASK_LIMIT_REACHED',
        message: 'A schedule may have at most 10 tasks',
        details: { limit: 10 },
        requestId: REQUEST_ID,
      });
    });

    it('should give concurrent creations distinct sequence ids', async () => {
      const s = await createSchedule({ name: 'Concurrent' });
      const created = await Promise.all(Array.from({ length: 6 }, (_, i) => createTask(s.id, { action: 'command', payload: `say ${i}` })));
      expect(created.map((t) => t.sequence_id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('should delete a task, move the later ones up and give the next task the next sequence id', async () => {
      const s = await createSchedule({ name: 'Renumber' });
      const tasks = [];
      for (const payload of ['say a', 'say b', 'say c']) {
        tasks.push(await createTask(s.id, { action: 'command', payload }));
      }
      await p.asOwner('delete', `${base}/${s.id}/tasks/${tasks[0].id}`).expect(204);
      await createTask(s.id, { action: 'command', payload: 'say d' });
      const after = (await p.asOwner('get', `${base}/${s.id}`).expect(200)).body.data.tasks;
      expect(after.map((t: Json) => [t.sequence_id, t.payload])).toEqual([
        [1, 'say b'],
        [2, 'say c'],
        [3, 'say d'],
      ]);
      const missing = await p.asOwner('delete', `${base}/${s.id}/tasks/${tasks[0].id}`).expect(404);
      expect(missing.body).toEqual({ statusCode: 404, code: 'SCHEDULE_TASK_NOT_FOUND', message: 'Task not found', requestId: REQUEST_ID });
      await p.asOwner('delete', `${base}/${s.id}/tasks/x1`).expect(404);
      expect(await activity('server.task.delete')).toContainEqual(
        expect.objectContaining({ metadata: { schedule_id: s.id, task_id: tasks[0].id, action: 'command', payload: 'say a' } }),
      );
    });

    it('should not delete a task through another schedule', async () => {
      const a = await createSchedule({ name: 'A' });
      const b = await createSchedule({ name: 'B' });
      const task = await createTask(a.id, { action: 'command', payload: 'say a' });
      await p.asOwner('delete', `${base}/${b.id}/tasks/${task.id}`).expect(404);
      expect((await p.asOwner('get', `${base}/${a.id}`).expect(200)).body.data.tasks).toHaveLength(1);
    });
  });

  describe('force run refusals', () => {
    it('should refuse to run a schedule without tasks', async () => {
      const s = await createSchedule({ name: 'Empty' });
      const res = await p.asOwner('post', `${base}/${s.id}/run`).expect(409);
      expect(res.body).toEqual({ statusCode: 409, code: 'SCHEDULE_HAS_NO_TASKS', message: 'The schedule has no tasks to run', requestId: REQUEST_ID });
    });

    it('should refuse to run a schedule another run holds, and take it over once that claim is stale', async () => {
      const s = await createSchedule({ name: 'Held' });
      await createTask(s.id, { action: 'command', payload: 'say held' });
      await ds().query(`UPDATE schedule SET is_processing = true, claim_token = gen_random_uuid(), processing_since = $2 WHERE id = $1`, [s.id, p.t.clock.now()]);
      const res = await p.asOwner('post', `${base}/${s.id}/run`).expect(409);
      expect(res.body).toEqual({ statusCode: 409, code: 'SCHEDULE_ALREADY_RUNNING', message: 'The schedule is already running', requestId: REQUEST_ID });
      expect(await activity('server.schedule.execute')).not.toContainEqual(expect.objectContaining({ metadata: expect.objectContaining({ schedule_id: s.id }) }));
      p.t.clock.advance(10 * MINUTE);
      await p.asOwner('post', `${base}/${s.id}/run`).expect(202);
    });

    it('should refuse to run the schedules of a suspended server', async () => {
      const s = await createSchedule({ name: 'Suspended' });
      await createTask(s.id, { action: 'command', payload: 'say x' });
      await p.admin('post', `/api/admin/servers/${serverId}/suspend`).expect(200);
      try {
        const res = await p.asOwner('post', `${base}/${s.id}/run`).expect(409);
        expect(res.body).toMatchObject({ code: 'SERVER_SUSPENDED' });
      } finally {
        await p.admin('post', `/api/admin/servers/${serverId}/unsuspend`).expect(200);
      }
    });
  });

  describe('access', () => {
    it('should answer 401 without credentials and 404 to a user who is neither owner nor admin', async () => {
      await p.t.http().get(base).expect(401);
      const stranger = await createUser(p.t.app);
      const cookie = await signIn(p.t, stranger.email);
      const res = await p.t.http().get(base).set('Cookie', cookie).expect(404);
      expect(res.body).toMatchObject({ code: 'SERVER_NOT_FOUND' });
      await p.t.http().post(base).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ name: 'x', cron: cron('* * * * *') }).expect(404);
    });

    it('should let an administrator manage the schedules of a server they do not own', async () => {
      const s = (await p.admin('post', base).send({ name: 'By admin', cron: cron('0 0 * * *') }).expect(201)).body.data;
      await p.admin('post', `${base}/${s.id}/tasks`).send({ action: 'command', payload: 'say admin' }).expect(201);
      expect((await p.admin('get', `${base}/${s.id}`).expect(200)).body.data.tasks).toHaveLength(1);
      await p.admin('delete', `${base}/${s.id}`).expect(204);
    });
  });

  it('should remove the schedules and tasks of a deleted server', async () => {
    const doomed = await p.createServer({ name: 'Doomed' });
    await p.installed(doomed.id);
    const path = `/api/client/servers/${doomed.uuid}/schedules`;
    const s = (await p.asOwner('post', path).send({ name: 'Gone', cron: cron('0 0 * * *') }).expect(201)).body.data;
    await p.asOwner('post', `${path}/${s.id}/tasks`).send({ action: 'command', payload: 'say gone' }).expect(201);
    await p.admin('delete', `/api/admin/servers/${doomed.id}`).expect(204);
    expect(await count('SELECT count(*)::int AS n FROM schedule WHERE server_id = $1', [doomed.id])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM schedule_task WHERE schedule_id = $1', [s.id])).toBe(0);
  });
});
