import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

interface Page {
  data: { id: string; name?: string }[];
  meta: { cursor: { next: string | null; prev: string | null; count: number; perPage: number } };
}

/**
 * Cursor pages of the admin lists of users, nodes and servers (docs/api.md#cursor-pages): id order
 * as their numbered pages, no row skipped or repeated while rows are added, filters kept, both ways.
 */
describe.each(dbKinds(['postgres', 'pglite']))('admin list cursor pages (%s)', (db) => {
  let t: TestApp;
  let ds: DataSource;
  let admin: UserEntity;
  let cookie: string;

  const get = async (path: string): Promise<Page> => (await t.http().get(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(200)).body as Page;
  /** Every id from the first cursor page on, following `next`, with `between` run between pages; and the last page. */
  const walk = async (url: string, between: () => Promise<unknown> = async () => {}): Promise<{ ids: string[]; last: Page }> => {
    const ids: string[] = [];
    let page = await get(`${url}&cursor=`);
    ids.push(...page.data.map((r) => r.id));
    for (let i = 0; page.meta.cursor.next !== null; i++) {
      expect(i).toBeLessThan(50);
      await between();
      page = await get(`${url}&cursor=${page.meta.cursor.next}`);
      ids.push(...page.data.map((r) => r.id));
    }
    return { ids, last: page };
  };
  const idsOf = async (sql: string, params: unknown[] = []): Promise<string[]> => (await ds.query<{ id: string }[]>(sql, params)).map((r) => String(r.id));

  beforeAll(async () => {
    t = await createTestApp({ db });
    ds = t.app.get(DataSource);
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should page the users in id order while accounts are created, the search kept, and walk back with prev', async () => {
    for (let i = 0; i < 5; i++) {
      await createUser(t.app, { username: `cursor-walker-${i}` });
    }
    // Accounts created meanwhile come after the cursor, so the walk reaches them too.
    let late = 0;
    const { ids, last } = await walk('/api/admin/users?perPage=2&search=cursor-walker', async () => {
      await createUser(t.app, { username: `cursor-walker-late-${late++}` });
      await createUser(t.app);
    });
    expect(ids).toEqual(await idsOf(`SELECT id FROM "user" WHERE username LIKE 'cursor-walker-%' ORDER BY id`));
    expect(ids.length).toBeGreaterThan(5);
    const back: string[] = [];
    let page = await get(`/api/admin/users?perPage=2&search=cursor-walker&cursor=${last.meta.cursor.prev}`);
    for (;;) {
      back.unshift(...page.data.map((r) => r.id));
      if (page.meta.cursor.prev === null) {
        break;
      }
      page = await get(`/api/admin/users?perPage=2&search=cursor-walker&cursor=${page.meta.cursor.prev}`);
    }
    expect(back).toEqual(ids.slice(0, ids.length - last.data.length));
  });

  it('should page the nodes, then the servers of one node with a search, by cursor', async () => {
    const nodes = [];
    for (let i = 0; i < 3; i++) {
      nodes.push((await createNodeRow(t.app)).node);
    }
    expect((await walk('/api/admin/nodes?perPage=2', () => createNodeRow(t.app))).ids).toEqual(await idsOf('SELECT id FROM node ORDER BY id'));

    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    for (const [i, node] of [nodes[0], nodes[0], nodes[1], nodes[0], nodes[0]].entries()) {
      await createServerRow(t.app, { node, egg, owner: admin, overrides: { name: i === 3 ? 'Other' : `Cursor ${i}` } });
    }
    const { ids } = await walk(`/api/admin/servers?perPage=1&nodeId=${nodes[0].id}&search=cursor`);
    expect(ids).toEqual(await idsOf(`SELECT id FROM server WHERE node_id = $1 AND name LIKE 'Cursor %' ORDER BY id`, [nodes[0].id]));
    expect(ids).toHaveLength(3);
  });

  it('should refuse a cursor of another list', async () => {
    const users = await get('/api/admin/users?perPage=1&cursor=');
    const res = await t.http().get(`/api/admin/nodes?cursor=${users.meta.cursor.next}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(400);
    expect(res.body.details).toEqual([{ field: 'cursor', message: 'cursor must be a cursor this list returned' }]);
  });
});
