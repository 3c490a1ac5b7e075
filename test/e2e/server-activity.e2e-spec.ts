import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

interface Entry {
  event: string;
  metadata: Record<string, unknown>;
}
interface Page {
  data: Entry[];
  meta: { pagination: { total: number; count: number; perPage: number; currentPage: number; totalPages: number } };
}

/**
 * GET /api/client/servers/{server}/activity?event=: an exact event name, or a prefix ending in `.*`,
 * read literally (LIKE's `_` and `%` are not wildcards), with the pagination counting the kept entries only.
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('server activity filtered by event (%s)', (db) => {
  let p: SimPanel;
  let base: string;

  const list = async (query: string): Promise<Page> => (await p.asOwner('get', `${base}/activity?${query}`).expect(200)).body;
  const events = (page: Page) => page.data.map((e) => e.event);

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer({ name: 'Logged' });
    base = `/api/client/servers/${server.uuid}`;
    await p.installed(server.id);
    const cron = { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' };
    const schedule = (await p.asOwner('post', `${base}/schedules`).send({ name: 'Nightly', cron }).expect(201)).body.data;
    await p.asOwner('post', `${base}/schedules/${schedule.id}`).send({ is_active: false }).expect(200);
    await p.asOwner('post', `${base}/files/write`).send({ file: '/a.txt', content: 'x' }).expect(204);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should keep only the entries of an exact event name', async () => {
    const page = await list('event=server.file.write');
    expect(events(page)).toEqual(['server.file.write']);
    expect(page.meta.pagination.total).toBe(1);
    expect(events(await list('event=server.schedule'))).toEqual([]);
  });

  it('should keep every event under a prefix ending in .*, newest first, and page through them alone', async () => {
    expect(events(await list('event=server.schedule.*'))).toEqual(['server.schedule.update', 'server.schedule.create']);
    const second = await list('event=server.schedule.*&perPage=1&page=2');
    expect(events(second)).toEqual(['server.schedule.create']);
    expect(second.meta.pagination).toEqual({ total: 2, count: 1, perPage: 1, currentPage: 2, totalPages: 2 });
    expect(events(await list(''))).toEqual(expect.arrayContaining(['server.file.write', 'server.schedule.update', 'server.schedule.create']));
  });

  it('should read _ in a prefix literally, not as a one-character wildcard', async () => {
    expect(events(await list('event=server.fil_.*'))).toEqual([]);
    expect(events(await list('event=server_schedule.*'))).toEqual([]);
  });

  it.each(['server.%', 'server.*.create', 'Server.File.Write', 'server..file', '*', 'x'.repeat(65)])('should answer 400 VALIDATION_FAILED for event=%s', async (event) => {
    const res = await p.asOwner('get', `${base}/activity?event=${encodeURIComponent(event)}`).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['event']));
  });
});
