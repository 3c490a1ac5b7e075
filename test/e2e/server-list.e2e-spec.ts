import { DataSource } from 'typeorm';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import { SubuserEntity } from 'src/modules/servers/subusers/subuser.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { closedPort } from 'test/utils/nodes';
import { createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { countQueries, countTypeormQueries } from 'test/utils/query-counter';
import { dbKinds } from 'test/utils/test-db';

interface Listed {
  id: string;
  status: string;
  permissions: string[];
}
interface ListBody {
  data: Listed[];
  meta: { pagination: { total: number; count: number; perPage: number; currentPage: number; totalPages: number } };
}

/**
 * The client server list reads a page with one raw query (ServerListRepository.clientListPage) and
 * maps it in plain code: each entry must be what the server's details page shows, on PostgreSQL
 * and on the embedded PGlite, and a page must cost one query (two only past the last page).
 */
describe.each(dbKinds(['postgres', 'pglite']))('the client server list (%s)', (db) => {
  let t: TestApp;
  let owner: UserEntity;
  let friend: UserEntity;
  let cookies: Record<'owner' | 'friend' | 'admin', string>;
  let node: NodeEntity;
  /** Each node's Authorization header, as its daemon sends it. */
  const nodeAuth = new Map<string, string>();
  let egg: EggEntity;
  const owned: ServerEntity[] = [];
  let shared: ServerEntity;

  const get = async (path: string, who: keyof typeof cookies) => {
    // What was written before is applied first, so a late notification cannot undo a fill.
    await t.app.get(ChangeFeed).caughtUp();
    const count = db === 'postgres' ? countQueries : countTypeormQueries;
    const { result, queries } = await count(() => t.http().get(path).set('Cookie', cookies[who]));
    expect({ path, status: result.status }).toEqual({ path, status: 200 });
    return { body: result.body as ListBody, queries };
  };

  /** The details page without what only it carries (ClientServerDetailsDto's own fields): the list item's fields. */
  const details = async (id: string, who: keyof typeof cookies): Promise<Listed> => {
    const server = [...owned, shared].find((s) => s.id === id)!;
    const page = (await t.http().get(`/api/client/servers/${server.uuid}`).set('Cookie', cookies[who]).expect(200)).body.data;
    const { sftp, uploadSizeMiB, featureLimits, egg, image, ...listed } = page;
    expect([sftp, uploadSizeMiB, featureLimits, egg, image]).not.toContain(undefined);
    return listed as Listed;
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    owner = await createUser(t.app);
    friend = await createUser(t.app);
    const admin = await createUser(t.app, { admin: true });
    cookies = { owner: await signIn(t, owner.email), friend: await signIn(t, friend.email), admin: await signIn(t, admin.email) };
    egg = await createEgg(t.app, (await createNest(t.app)).id);
    // Nothing listens on the node: the details page's status call fails fast ("unknown"), as the list shows an idle server.
    const made = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
    node = made.node;
    nodeAuth.set(node.id, `Bearer ${node.tokenIdentifier}.${made.token}`);
    const variants: Partial<ServerEntity>[] = [
      { description: 'the main one' },
      { suspended: true },
      { status: 'installing', swap: -1, io: 800 },
      { status: 'restoring_backup', suspended: true },
    ];
    for (const overrides of variants) {
      const primary = await createAllocationRow(t.app, node, { ip: '10.0.0.2', alias: 'play.example.test', notes: 'main' });
      const server = await createServerRow(t.app, { node, egg, owner, allocation: primary, overrides });
      // Additional allocations, listed by ip, then port, around the primary.
      await createAllocationRow(t.app, node, { ip: '10.0.0.9', serverId: server.id });
      await createAllocationRow(t.app, node, { ip: '10.0.0.1', serverId: server.id, notes: 'query' });
      owned.push(server);
    }
    // One server without any allocation.
    owned.push(await createServerRow(t.app, { node, egg, owner }));
    const other = await createUser(t.app);
    shared = await createServerRow(t.app, { node, egg, owner: other, allocation: await createAllocationRow(t.app, node) });
    const repo = t.app.get(DataSource).getRepository(SubuserEntity);
    await repo.save(repo.create({ serverId: shared.id, userId: friend.id, permissions: ['server.view', 'server.files.read', 'file.read'] }));
    await repo.save(repo.create({ serverId: owned[1].id, userId: friend.id, permissions: ['server.view'] }));
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['owner', '/api/client/servers', 'owner'],
    ['owner', '/api/client/servers?type=owner', 'owner'],
    ['admin', '/api/client/servers?type=admin-all&perPage=100', 'admin'],
    ['friend', '/api/client/servers', 'friend'],
    ['friend', '/api/client/servers?type=subuser', 'friend'],
  ] as const)('should show each server as its details page shows it to the caller (%s, %s)', async (_who, path, who) => {
    const { body } = await get(path, who);
    expect(body.data.length).toBeGreaterThan(0);
    const ids = body.data.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
    for (const entry of body.data) {
      expect(entry).toEqual(await details(entry.id, who));
    }
  });

  it('should list what each type shows, with the grants of shared servers', async () => {
    const idsOf = (b: ListBody) => b.data.map((s) => s.id);
    const ownedIds = owned.map((s) => s.id);
    expect(idsOf((await get('/api/client/servers', 'owner')).body)).toEqual(ownedIds);
    expect(idsOf((await get('/api/client/servers?type=subuser', 'owner')).body)).toEqual([]);
    const visible = (await get('/api/client/servers', 'friend')).body;
    expect(visible.data.map((s) => [s.id, s.permissions])).toEqual(
      [
        [owned[1].id, ['server.view']],
        // A name outside the catalogue (file.read is the daemon's) is not shown.
        [shared.id, ['server.view', 'server.files.read']],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect((await get('/api/client/servers?type=subuser', 'friend')).body).toEqual(visible);
    expect(idsOf((await get('/api/client/servers?type=owner', 'friend')).body)).toEqual([]);
    // Not an admin: admin-all is the caller's own servers.
    expect(idsOf((await get('/api/client/servers?type=admin-all', 'owner')).body)).toEqual(ownedIds);
  });

  it('should cut pages in id order and count them all', async () => {
    const page2 = (await get('/api/client/servers?perPage=2&page=2', 'owner')).body;
    expect(page2.data.map((s) => s.id)).toEqual([owned[2].id, owned[3].id]);
    expect(page2.meta.pagination).toEqual({ total: 5, count: 2, perPage: 2, currentPage: 2, totalPages: 3 });
    const past = (await get('/api/client/servers?perPage=2&page=9', 'owner')).body;
    expect(past).toEqual({ data: [], meta: { pagination: { total: 5, count: 0, perPage: 2, currentPage: 9, totalPages: 3 } } });
    const none = (await get('/api/client/servers?type=subuser', 'owner')).body;
    expect(none.meta.pagination).toEqual({ total: 0, count: 0, perPage: 50, currentPage: 1, totalPages: 1 });
  });

  it('should search by name, identifier, uuid, description, node, owner and address, ignoring case, within what the caller may see', async () => {
    const idsFor = async (search: string, who: keyof typeof cookies = 'owner', type = '') =>
      (await get(`/api/client/servers?search=${encodeURIComponent(search)}${type}`, who)).body.data.map((s) => s.id);
    const ownedIds = owned.map((s) => s.id);
    const [first] = owned;
    expect(await idsFor(first.name.toUpperCase())).toEqual(owned.filter((s) => s.name.toUpperCase().includes(first.name.toUpperCase())).map((s) => s.id));
    expect(await idsFor(first.identifier)).toEqual([first.id]);
    expect(await idsFor(first.uuid.slice(9, 23))).toEqual([first.id]);
    expect(await idsFor('MAIN ONE')).toEqual([first.id]);
    // Every owned server is on the node and has the owner; the shared one is someone else's.
    expect(await idsFor(node.name)).toEqual(ownedIds);
    expect(await idsFor(owner.username)).toEqual(ownedIds);
    // Addresses: the alias, an ip, and ip:port of an additional allocation.
    expect(await idsFor('play.example')).toEqual(ownedIds.slice(0, 4));
    expect(await idsFor('10.0.0.9')).toEqual(ownedIds.slice(0, 4));
    const [extra] = await t.app.get(DataSource).query<{ ip: string; port: number }[]>('SELECT ip, port FROM allocation WHERE server_id = $1 AND ip = $2', [owned[2].id, '10.0.0.9']);
    expect(await idsFor(`${extra.ip}:${extra.port}`)).toEqual([owned[2].id]);
    // % and _ are letters here, not wildcards; nothing matches, and the count says so.
    expect(await idsFor('%')).toEqual([]);
    expect(await idsFor('_')).toEqual([]);
    const none = (await get('/api/client/servers?search=no-such-server', 'owner')).body;
    expect(none).toEqual({ data: [], meta: { pagination: { total: 0, count: 0, perPage: 50, currentPage: 1, totalPages: 1 } } });
    // Blank is no search; a search stays within the type and the caller's servers.
    expect(await idsFor('   ')).toEqual(ownedIds);
    expect(await idsFor(node.name, 'friend')).toEqual([owned[1].id, shared.id].sort((a, b) => Number(a) - Number(b)));
    expect(await idsFor(node.name, 'friend', '&type=subuser')).toEqual([owned[1].id, shared.id].sort((a, b) => Number(a) - Number(b)));
    expect(await idsFor(first.identifier, 'friend')).toEqual([]);
    expect(await idsFor(first.identifier, 'admin', '&type=admin-all')).toEqual([first.id]);
    // Pages of a search are counted on the matches, in one query.
    const page = await get(`/api/client/servers?search=${encodeURIComponent(owner.username)}&perPage=2&page=2`, 'owner');
    expect(page.body.meta.pagination).toEqual({ total: 5, count: 2, perPage: 2, currentPage: 2, totalPages: 3 });
    expect(page.queries).toHaveLength(1);
  });

  it('should find by each field the same servers in the admin list and admin-all, with % and _ as typed and searches of one or two characters', async () => {
    const third = await createUser(t.app, { username: `third_${Date.now().toString(36)}` });
    const other = (await createNodeRow(t.app, { name: `Other node ${Date.now().toString(36)}` })).node;
    await createServerRow(t.app, { node: other, egg, owner: third, overrides: { name: 'Lobby 100%' } });
    await createServerRow(t.app, { node: other, egg, owner: third, overrides: { name: 'a_b world', description: 'Survival, hard' } });
    await createServerRow(t.app, { node: other, egg, owner: third, overrides: { name: 'aXb world' }, allocation: await createAllocationRow(t.app, other, { ip: '192.0.2.7', alias: 'mc.third.test' }) });
    // What each server can be found by, read straight from the tables: the oracle the searches must agree with.
    const rows = await t.app.get(DataSource).query<{ id: string; texts: string[] }[]>(
      `SELECT s.id, ARRAY[s.name, s.identifier, s.uuid::text, COALESCE(s.description, ''), n.name, u.username]
         || COALESCE((SELECT array_agg(a.ip || ':' || a.port) || array_agg(COALESCE(a.alias, '')) FROM allocation a WHERE a.server_id = s.id), '{}') AS texts
       FROM server s JOIN node n ON n.id = s.node_id JOIN "user" u ON u.id = s.owner_id ORDER BY s.id`,
    );
    const expected = (search: string): string[] => rows.filter((r) => r.texts.some((x) => x.toLowerCase().includes(search.toLowerCase()))).map((r) => String(r.id));
    const [first] = owned;
    const searches = [
      first.name.slice(3),
      first.identifier.toUpperCase(),
      first.uuid.slice(12, 30),
      'MAIN ONE',
      node.name,
      other.name.slice(2),
      third.username,
      owner.username.slice(0, 3),
      'play.example',
      'mc.third',
      '10.0.0.9',
      '192.0.2.7:',
      '%',
      '_',
      '100%',
      '0%',
      'a_b',
      'SURVIVAL',
      'b',
      'x',
      '0.',
      'wO',
    ];
    for (const search of searches) {
      const want = expected(search);
      const q = encodeURIComponent(search);
      const admin = await t.http().get(`/api/admin/servers?search=${q}&perPage=100`).set('Cookie', cookies.admin).expect(200);
      const all = (await get(`/api/client/servers?type=admin-all&search=${q}&perPage=100`, 'admin')).body;
      expect({ search, admin: admin.body.data.map((s: { id: string }) => s.id), all: all.data.map((s) => s.id) }).toEqual({ search, admin: want, all: want });
      expect([admin.body.meta.pagination.total, all.meta.pagination.total]).toEqual([want.length, want.length]);
    }
    expect(expected('%')).toHaveLength(1);
    expect(expected('_').length).toBeGreaterThanOrEqual(2);
    expect(expected('a_b')).toHaveLength(1);
    // Pages of a search count every match.
    const page = await t.http().get(`/api/admin/servers?search=${third.username}&perPage=2&page=2`).set('Cookie', cookies.admin).expect(200);
    expect(page.body.meta.pagination).toEqual({ total: 3, count: 1, perPage: 2, currentPage: 2, totalPages: 2 });
  });

  it("should count the admin list and sum each node's servers exactly as servers are added, changed, moved and deleted, and cut its last pages as its first", async () => {
    const ds = t.app.get(DataSource);
    const idsInDb = async (nodeId?: string): Promise<string[]> =>
      (await ds.query<{ id: string }[]>(`SELECT id FROM server ${nodeId ? 'WHERE node_id = $1' : ''} ORDER BY id`, nodeId ? [nodeId] : [])).map((r) => String(r.id));
    const list = async (query: string) => (await t.http().get(`/api/admin/servers?${query}`).set('Cookie', cookies.admin).expect(200)).body;
    const uuidsOf = async (ids: string[]): Promise<string[]> =>
      (await ds.query<{ uuid: string }[]>('SELECT uuid FROM server WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).map((r) => r.uuid);
    const check = async (nodeId?: string): Promise<void> => {
      const ids = await idsInDb(nodeId);
      const filter = nodeId ? `nodeId=${nodeId}&` : '';
      const pages = Math.max(1, Math.ceil(ids.length / 2));
      for (const at of [1, Math.ceil(pages / 2), pages - 1, pages].filter((n) => n >= 1)) {
        const body = await list(`${filter}perPage=2&page=${at}`);
        expect({ at, ids: body.data.map((s: { id: string }) => s.id), total: body.meta.pagination.total }).toEqual({ at, ids: ids.slice((at - 1) * 2, at * 2), total: ids.length });
        if (!nodeId) {
          // The client list's admin-all reads its pages from the nearer end too.
          const all = (await get(`/api/client/servers?type=admin-all&perPage=2&page=${at}`, 'admin')).body;
          expect({ at, ids: all.data.map((s) => s.id), total: all.meta.pagination.total }).toEqual({ at, ids: ids.slice((at - 1) * 2, at * 2), total: ids.length });
        }
      }
      expect((await list(`${filter}perPage=2&page=${pages + 3}`)).meta.pagination).toEqual({ total: ids.length, count: 0, perPage: 2, currentPage: pages + 3, totalPages: pages });
      if (nodeId) {
        // The node's boot list (Wings' pages) takes its total from the same per-node count, on a page and past the last one.
        const boot = async (at: number) => (await t.http().get(`/api/remote/servers?page=${at}&per_page=2`).set('Authorization', nodeAuth.get(nodeId)!).expect(200)).body;
        for (const at of [1, pages, pages + 2]) {
          const body = await boot(at);
          expect({ at, ids: body.data.map((c: { uuid: string }) => c.uuid), total: body.meta.total, lastPage: body.meta.last_page }).toEqual({
            at,
            ids: await uuidsOf(ids.slice((at - 1) * 2, at * 2)),
            total: ids.length,
            lastPage: pages,
          });
        }
      }
      // What the servers of each node take, from the same per-node totals.
      const sums = await ds.query<{ nodeId: string; servers: number; memory: number; disk: number }[]>(
        'SELECT node_id::text AS "nodeId", count(*)::int AS servers, sum(memory)::int AS memory, sum(disk)::int AS disk FROM server GROUP BY node_id ORDER BY node_id',
      );
      expect((await t.http().get('/api/admin/servers/node-usage').set('Cookie', cookies.admin).expect(200)).body.data).toEqual(sums);
    };
    await check();
    await check(node.id);
    const { node: moved, token: movedToken } = await createNodeRow(t.app);
    nodeAuth.set(moved.id, `Bearer ${moved.tokenIdentifier}.${movedToken}`);
    const made = await createServerRow(t.app, { node: moved, egg, owner });
    await check();
    await check(moved.id);
    // Moved in one transaction with another server's creation, then deleted: the counts follow each commit.
    await ds.transaction(async (m) => {
      await m.query('UPDATE server SET node_id = $1 WHERE id = $2', [node.id, made.id]);
      await m.query('UPDATE server SET node_id = node_id, memory = memory + 512, disk = disk + 1 WHERE id = $1', [made.id]);
    });
    await check(node.id);
    await check(moved.id);
    await ds.query('DELETE FROM server WHERE id = $1', [made.id]);
    await check();
    await check(node.id);
  });

  it("should list through the Pterodactyl client API each type's servers (own and shared, owned, every other, every) with exact totals", async () => {
    const ds = t.app.get(DataSource);
    const adminId = String((await t.http().get('/api/account').set('Cookie', cookies.admin).expect(200)).body.data.id);
    const subusers = ds.getRepository(SubuserEntity);
    await subusers.save(subusers.create({ serverId: owned[0].id, userId: adminId, permissions: ['server.view'] }));
    const keys: Partial<Record<keyof typeof cookies, string>> = {};
    const listed = async (who: keyof typeof cookies, query: string) => {
      keys[who] ??= (await createPterodactylKey(t, cookies[who], 'client')).key;
      const res = await t.http().get(`/pterodactyl/api/client?${query}`).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${keys[who]}`).expect(200);
      return { ids: (res.body.data as { attributes: { internal_id: number } }[]).map((x) => String(x.attributes.internal_id)), total: res.body.meta.pagination.total as number };
    };
    const every = (await ds.query<{ id: string }[]>('SELECT id FROM server ORDER BY id')).map((r) => String(r.id));
    const ownedIds = owned.map((x) => x.id);
    const byId = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));
    expect(await listed('owner', 'per_page=100')).toEqual({ ids: ownedIds, total: ownedIds.length });
    expect(await listed('owner', 'type=owner&per_page=2&page=3')).toEqual({ ids: ownedIds.slice(4), total: ownedIds.length });
    expect(await listed('friend', 'per_page=100')).toEqual({ ids: byId([owned[1].id, shared.id]), total: 2 });
    expect(await listed('friend', 'type=owner')).toEqual({ ids: [], total: 0 });
    expect(await listed('admin', '')).toEqual({ ids: [owned[0].id], total: 1 });
    const others = every.filter((id) => id !== owned[0].id);
    expect(await listed('admin', 'type=admin&per_page=100')).toEqual({ ids: others, total: others.length });
    expect(await listed('admin', 'type=admin&per_page=2&page=2')).toEqual({ ids: others.slice(2, 4), total: others.length });
    expect(await listed('admin', 'type=admin&per_page=2&page=99')).toEqual({ ids: [], total: others.length });
    expect(await listed('admin', 'type=admin-all&per_page=100')).toEqual({ ids: every, total: every.length });
    expect(await listed('admin', `type=admin-all&per_page=2&page=${Math.ceil(every.length / 2)}`)).toEqual({ ids: every.slice(2 * (Math.ceil(every.length / 2) - 1)), total: every.length });
    expect(await listed('admin', 'type=admin-all&per_page=2&page=99')).toEqual({ ids: [], total: every.length });
    // Filters narrow each type, and their totals count the matches.
    expect(await listed('admin', `type=admin&filter[name]=${encodeURIComponent(owned[1].name.slice(4).toUpperCase())}`)).toEqual({ ids: [owned[1].id], total: 1 });
    expect(await listed('admin', `type=admin&filter[*]=${owned[0].identifier}`)).toEqual({ ids: [], total: 0 });
    expect(await listed('admin', `type=admin-all&filter[*]=${owned[0].identifier}`)).toEqual({ ids: [owned[0].id], total: 1 });
    expect(await listed('friend', `filter[uuid]=${shared.uuid.slice(10, 20)}`)).toEqual({ ids: [shared.id], total: 1 });
    // filter[*] as an address: ip, ip:port and :port, the port as a prefix.
    const [extra] = await ds.query<{ port: number }[]>('SELECT port FROM allocation WHERE server_id = $1 AND ip = $2', [owned[2].id, '10.0.0.9']);
    const at = async (ip: string | null, port: string | null): Promise<string[]> =>
      (
        await ds.query<{ server_id: string }[]>(
          'SELECT DISTINCT server_id FROM allocation WHERE server_id IS NOT NULL AND ($1::text IS NULL OR ip = $1) AND ($2::text IS NULL OR port::text LIKE $2 || $3) ORDER BY server_id',
          [ip, port, '%'],
        )
      ).map((r) => String(r.server_id));
    const addresses: [string, string | null, string | null][] = [
      ['10.0.0.9', '10.0.0.9', null],
      [`10.0.0.9:${extra.port}`, '10.0.0.9', String(extra.port)],
      [`10.0.0.9:${String(extra.port).slice(0, 2)}`, '10.0.0.9', String(extra.port).slice(0, 2)],
      [`:${extra.port}`, null, String(extra.port)],
    ];
    for (const [query, ip, port] of addresses) {
      const want = await at(ip, port);
      expect(want).toContain(owned[2].id);
      expect({ query, ...(await listed('admin', `type=admin-all&per_page=100&filter[*]=${encodeURIComponent(query)}`)) }).toEqual({ query, ids: want, total: want.length });
    }
    await subusers.delete({ serverId: owned[0].id, userId: adminId });
  });

  it('should refuse a search longer than 100 characters', async () => {
    const res = await t.http().get(`/api/client/servers?search=${'x'.repeat(101)}`).set('Cookie', cookies.owner).expect(400);
    expect(res.body.details).toEqual([{ field: 'search', message: 'search must be shorter than or equal to 100 characters' }]);
  });

  it.each([
    ['/api/client/servers', 'owner'],
    ['/api/client/servers?type=owner', 'owner'],
    ['/api/client/servers?type=admin-all', 'admin'],
    ['/api/client/servers', 'friend'],
    ['/api/client/servers?type=subuser', 'friend'],
  ] as const)('should read %s (%s) in one query once the caller is known, and a page past the end in two', async (path, who) => {
    // A first call writes the once-a-minute "last seen" mark (the test clock stands still after it).
    await get(path, who);
    expect((await get(path, who)).queries).toHaveLength(1);
    expect((await get(`${path}${path.includes('?') ? '&' : '?'}page=50`, who)).queries).toHaveLength(2);
  });
});
