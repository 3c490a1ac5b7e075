import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { TestApp } from 'test/utils/create-test-app';
import { createLogFixture, LogFixture } from 'test/utils/log-fixture';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { dbKinds } from 'test/utils/test-db';

const AUDIT = '/api/admin/audit-logs';

interface CursorMeta {
  next: string | null;
  prev: string | null;
  count: number;
  perPage: number;
}
interface Entry {
  id: string;
  action?: string;
  event?: string;
}

/**
 * Cursor pages (docs/api.md#cursor-pages) of the audit log, a server's activity and the account's
 * activity: stable while rows are inserted, both ways; bound to their list and refused when altered;
 * combined with filters. Page-number answers keep their shape, and their totals (kept by triggers)
 * stay exact through inserts and deletes, deep pages included.
 */
describe.each(dbKinds(['postgres', 'pglite']))('log cursor pages (%s)', (db) => {
  let f: LogFixture;
  let t: TestApp;
  let ds: DataSource;
  let admin: UserEntity;
  let activity: string;
  let serverId: string;
  let tick = 0;

  const get = (path: string) => f.get(path);
  // Distinct, increasing times with microseconds, which a JavaScript date cannot hold.
  const nextTime = (): string => {
    tick += 1;
    return new Date(Date.UTC(2026, 0, 1) + tick * 1000).toISOString().replace('Z', `${String(tick % 1000).padStart(3, '0')}Z`);
  };
  const insertAudit = async (action: string, count: number, at?: string): Promise<void> => {
    for (let i = 0; i < count; i++) {
      await f.audit(action, at ?? nextTime());
    }
  };
  const insertActivity = async (event: string, count: number, at?: string): Promise<void> => {
    for (let i = 0; i < count; i++) {
      await f.act(event, at ?? nextTime());
    }
  };
  /** Follows `next` (or `prev`) from `start` to the end, calling `between` between pages. */
  const walk = async (url: string, start: string, way: 'next' | 'prev', between: () => Promise<void> = async () => {}): Promise<Entry[]> => {
    const seen: Entry[] = [];
    let cursor: string | null = start;
    for (let pages = 0; cursor !== null; pages++) {
      expect(pages).toBeLessThan(50);
      const body = (await get(`${url}${url.includes('?') ? '&' : '?'}cursor=${cursor}`).expect(200)).body as { data: Entry[]; meta: { cursor: CursorMeta } };
      seen.push(...(way === 'next' ? body.data : [...body.data].reverse()));
      cursor = body.meta.cursor[way];
      if (cursor !== null) {
        await between();
      }
    }
    return seen;
  };
  const ids = (entries: Entry[]) => entries.map((e) => e.id);
  const dbIds = async (sql: string, params: unknown[]): Promise<string[]> => (await ds.query<{ id: string }[]>(sql, params)).map((r) => String(r.id));

  beforeAll(async () => {
    f = await createLogFixture(db);
    ({ t, ds, admin, activity, serverId } = f);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should page the audit log by cursor, newest first, with no entry skipped or repeated while entries are added', async () => {
    await insertAudit('test.walk', 10);
    const before = await dbIds(`SELECT id FROM audit_log WHERE action = 'test.walk' ORDER BY id DESC`, []);
    const first = (await get(`${AUDIT}?action=test.walk&perPage=3&cursor=`).expect(200)).body;
    expect(Object.keys(first.meta)).toEqual(['cursor']);
    expect(first.meta.cursor).toEqual({ next: expect.any(String), prev: null, count: 3, perPage: 3 });
    const rest = await walk(`${AUDIT}?action=test.walk&perPage=3`, first.meta.cursor.next, 'next', () => insertAudit('test.walk', 2));
    expect([...ids(first.data), ...ids(rest)]).toEqual(before);
  });

  it('should walk back with prev from the last page to the newest entry, added ones included, none twice', async () => {
    const url = `${AUDIT}?action=test.walk&perPage=4`;
    let page = (await get(`${url}&cursor=`).expect(200)).body;
    while (page.meta.cursor.next !== null) {
      page = (await get(`${url}&cursor=${page.meta.cursor.next}`).expect(200)).body;
    }
    expect(page.meta.cursor.prev).toEqual(expect.any(String));
    const back = await walk(url, page.meta.cursor.prev, 'prev', () => insertAudit('test.walk', 1));
    // Newest first: every entry newer than the last page's first, those added during the walk included.
    const newestFirst = ids(back).reverse();
    expect(newestFirst).toEqual(await dbIds(`SELECT id FROM audit_log WHERE action = 'test.walk' AND id > $1 ORDER BY id DESC`, [page.data[0].id]));
    expect(new Set(newestFirst).size).toBe(newestFirst.length);
  });

  it('should keep the filters with a cursor, and a page-number answer exactly as before', async () => {
    await insertAudit('test.other', 3);
    const filtered = await walk(`${AUDIT}?action=test.other&perPage=2`, '', 'next');
    expect(filtered.map((e) => e.action)).toEqual(['test.other', 'test.other', 'test.other']);
    const numbered = (await get(`${AUDIT}?action=test.other&perPage=2&page=2`).expect(200)).body;
    expect(Object.keys(numbered)).toEqual(['data', 'meta']);
    expect(numbered.meta).toEqual({ pagination: { total: 3, count: 1, perPage: 2, currentPage: 2, totalPages: 2 } });
    expect(ids(numbered.data)).toEqual([filtered[2].id]);
  });

  it('should keep the unfiltered total exact through inserts and deletes, and read a deep page from the far end', async () => {
    const count = async () => Number((await ds.query<{ n: number }[]>('SELECT count(*)::int AS n FROM audit_log'))[0].n);
    const total = async () => (await get(`${AUDIT}?perPage=7`).expect(200)).body.meta.pagination.total as number;
    expect(await total()).toBe(await count());
    await insertAudit('test.count', 5);
    await ds.query(`DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE action = 'test.count' ORDER BY id LIMIT 2)`);
    expect(await total()).toBe(await count());
    const n = await count();
    const all = await dbIds('SELECT id FROM audit_log ORDER BY id DESC', []);
    const lastPage = Math.ceil(n / 7);
    for (const page of [1, Math.ceil(lastPage / 2) + 1, lastPage, lastPage + 1]) {
      const body = (await get(`${AUDIT}?perPage=7&page=${page}`).expect(200)).body;
      expect(ids(body.data)).toEqual(all.slice((page - 1) * 7, page * 7));
      expect(body.meta.pagination).toEqual({ total: n, count: body.data.length, perPage: 7, currentPage: page, totalPages: lastPage });
    }
  });

  it("should page a server's activity by cursor with an event filter, rows of one instant and microseconds included", async () => {
    const sameInstant = nextTime();
    await insertActivity('server.file.write', 3, sameInstant);
    await insertActivity('server.file.delete', 4);
    await insertActivity('server.power.start', 3);
    const expected = await dbIds(`SELECT id FROM server_activity WHERE server_id = $1 AND event LIKE 'server.file.%' ORDER BY created_at DESC, id DESC`, [serverId]);
    const seen = await walk(`${activity}?event=server.file.*&perPage=2`, '', 'next', () => insertActivity('server.file.write', 1));
    expect(ids(seen)).toEqual(expected);
    // 7 entries, and 3 written between the 4 pages (newer than the walk, so not in it).
    const numbered = (await get(`${activity}?event=server.file.*&perPage=2&page=2`).expect(200)).body;
    expect(numbered.meta).toEqual({ pagination: { total: 10, count: 2, perPage: 2, currentPage: 2, totalPages: 5 } });
    const all = await dbIds(`SELECT id FROM server_activity WHERE server_id = $1 ORDER BY created_at DESC, id DESC`, [serverId]);
    const unfiltered = (await get(`${activity}?perPage=4&page=3`).expect(200)).body;
    expect(unfiltered.meta.pagination.total).toBe(all.length);
    expect(ids(unfiltered.data)).toEqual(all.slice(8, 12));
  });

  it("should page the caller's own account activity by cursor", async () => {
    const expected = await dbIds(`SELECT id FROM audit_log WHERE actor_id = $1 AND target_type = 'user' AND target_id = $2 ORDER BY created_at DESC, id DESC`, [admin.id, admin.id]);
    const seen = await walk('/api/account/activity?perPage=5', '', 'next');
    expect(ids(seen)).toEqual(expected);
    // Numbered pages in the same order: a page before the middle, and one past it (read from the far end).
    for (const n of [2, Math.max(1, Math.ceil(expected.length / 3))]) {
      const numbered = (await get(`/api/account/activity?perPage=3&page=${n}`).expect(200)).body;
      expect(ids(numbered.data)).toEqual(expected.slice((n - 1) * 3, n * 3));
    }
  });

  it("should drop a deleted server's counts with its activity, and count a new server's from its first entry", async () => {
    const slots = async (id: string) => (await ds.query<{ n: string }[]>('SELECT n FROM server_activity_count WHERE server_id = $1', [id])).length;
    const { node } = await createNodeRow(t.app);
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const other = await createServerRow(t.app, { node, egg, owner: admin });
    expect(await slots(other.id)).toBe(0);
    await ds.query(`INSERT INTO server_activity (server_id, event, metadata, via, created_at) VALUES ($1, 'server.power.start', '{}', 'panel', now())`, [other.id]);
    expect((await get(`/api/client/servers/${other.uuid}/activity`).expect(200)).body.meta.pagination.total).toBe(1);
    await ds.query('DELETE FROM server WHERE id = $1', [other.id]);
    expect(await slots(other.id)).toBe(0);
  });

  it.each([
    ['not base64url', '%2Fx'],
    ['not JSON', Buffer.from('{oops').toString('base64url')],
    ['another list', Buffer.from(JSON.stringify({ l: 'server-activity', d: 'n', k: ['1'] })).toString('base64url')],
    ['an altered id', Buffer.from(JSON.stringify({ l: 'audit-log', d: 'n', k: ['1 OR 1=1'] })).toString('base64url')],
    ['an unknown direction', Buffer.from(JSON.stringify({ l: 'audit-log', d: 'x', k: ['1'] })).toString('base64url')],
    ['too many key values', Buffer.from(JSON.stringify({ l: 'audit-log', d: 'n', k: ['1', '2'] })).toString('base64url')],
    ['an id past bigint', Buffer.from(JSON.stringify({ l: 'audit-log', d: 'n', k: ['9223372036854775808'] })).toString('base64url')],
    ['a JSON array', Buffer.from('[1]').toString('base64url')],
  ])('should answer 400 VALIDATION_FAILED on cursor for %s', async (_name, cursor) => {
    const res = await get(`${AUDIT}?cursor=${cursor}`).expect(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message: expect.any(String), details: [{ field: 'cursor', message: expect.any(String) }], requestId: expect.any(String) });
  });

  it.each([
    ['a 13th month', '2026-13-01T00:00:00.000000Z'],
    ['a 31st of February', '2026-02-31T00:00:00.000000Z'],
    ['milliseconds only', '2026-01-01T00:00:00.000Z'],
  ])('should answer 400 on a server activity cursor with %s', async (_name, at) => {
    const cursor = Buffer.from(JSON.stringify({ l: 'server-activity', d: 'n', k: [at, '5'] })).toString('base64url');
    const res = await get(`${activity}?cursor=${cursor}`).expect(400);
    expect(res.body.details).toEqual([{ field: 'cursor', message: 'cursor must be a cursor this list returned' }]);
  });

  it('should refuse a page number with a cursor', async () => {
    const res = await get(`${AUDIT}?page=2&cursor=`).expect(400);
    expect(res.body.details).toEqual([{ field: 'cursor', message: 'cursor cannot be combined with page' }]);
  });
});
