import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

// What the administration's server pages read besides the server itself: the searched list, what the
// servers take of each node (the creation wizard's node step), and every startup variable with its value.
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the admin server views (%s)', (db) => {
  let p: SimPanel;

  beforeAll(async () => {
    p = await startSimPanel(db);
  });

  afterAll(async () => {
    await p?.close();
  });

  const names = (res: { body: { data: { name: string }[] } }): string[] => res.body.data.map((s) => s.name).sort();

  it('should search the admin list by name, owner, node and address, with the total of the matches', async () => {
    const lobby = await p.createServer({ name: 'Lobby 100%' });
    await p.createServer({ name: 'Creative' });
    const res = await p.admin('get', '/api/admin/servers?search=LOBBY').expect(200);
    expect(names(res)).toEqual(['Lobby 100%']);
    expect(res.body.meta.pagination).toEqual({ total: 1, count: 1, perPage: 50, currentPage: 1, totalPages: 1 });
    // `%` is taken as typed, not as a wildcard.
    expect(names(await p.admin('get', `/api/admin/servers?search=${encodeURIComponent('100%')}`).expect(200))).toEqual(['Lobby 100%']);
    expect(names(await p.admin('get', '/api/admin/servers?search=bY%201').expect(200))).toEqual(['Lobby 100%']);
    expect((await p.admin('get', `/api/admin/servers?search=${encodeURIComponent('0%0')}`).expect(200)).body.data).toEqual([]);

    const byOwner = await p.admin('get', `/api/admin/servers?search=${p.owner.username}&perPage=100`).expect(200);
    expect(names(byOwner)).toEqual(expect.arrayContaining(['Creative', 'Lobby 100%']));
    const full = (await p.admin('get', `/api/admin/servers/${lobby.id}`).expect(200)).body.data;
    const address = `0.0.0.0:${full.allocations.primary.port}`;
    expect(names(await p.admin('get', `/api/admin/servers?search=${encodeURIComponent(address)}`).expect(200))).toEqual(['Lobby 100%']);
    // A blank search is no search.
    const all = await p.admin('get', '/api/admin/servers?search=%20').expect(200);
    expect(all.body.meta.pagination.total).toBe((await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total);

    const long = await p.admin('get', `/api/admin/servers?search=${'x'.repeat(101)}`).expect(400);
    expect(long.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ field: 'search', message: expect.any(String) }] });
  });

  it("should keep one node's servers with nodeId (a node page's Servers tab), alone or with a search", async () => {
    await p.createServer({ name: 'On the sim node' });
    const locationId = (await p.admin('get', `/api/admin/nodes/${p.nodeId}`).expect(200)).body.data.locationId;
    const empty = (
      await p.admin('post', '/api/admin/nodes').send({ name: 'empty', fqdn: '127.0.0.1', scheme: 'http', daemonListen: 8080, memory: 1024, disk: 1024, locationId }).expect(201)
    ).body.data;
    const total = (await p.admin('get', '/api/admin/servers').expect(200)).body.meta.pagination.total;
    const onSim = await p.admin('get', `/api/admin/servers?nodeId=${p.nodeId}&perPage=100`).expect(200);
    expect(onSim.body.meta.pagination.total).toBe(total);
    expect(onSim.body.data.every((s: { node: { id: string } }) => s.node.id === p.nodeId)).toBe(true);
    expect(names(await p.admin('get', `/api/admin/servers?nodeId=${p.nodeId}&search=on%20the`).expect(200))).toEqual(['On the sim node']);
    const none = await p.admin('get', `/api/admin/servers?nodeId=${empty.id}`).expect(200);
    expect(none.body).toMatchObject({ data: [], meta: { pagination: { total: 0 } } });
    await p.admin('get', '/api/admin/servers?nodeId=999999999').expect(200);
    const bad = await p.admin('get', '/api/admin/servers?nodeId=first').expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'nodeId', message: 'nodeId must be a node id' }] });
    await p.admin('delete', `/api/admin/nodes/${empty.id}`).expect(204);
  });

  it('should sum what the servers of each node take of it', async () => {
    const usage = async (): Promise<{ nodeId: string; servers: number; memory: number; disk: number } | undefined> =>
      ((await p.admin('get', '/api/admin/servers/node-usage').expect(200)).body.data as { nodeId: string; servers: number; memory: number; disk: number }[]).find(
        (u) => u.nodeId === p.nodeId,
      );
    const before = (await usage()) ?? { nodeId: p.nodeId, servers: 0, memory: 0, disk: 0 };
    const made = await p.createServer({ name: 'Usage', memory: 1536, disk: 4096 });
    expect(await usage()).toEqual({ nodeId: p.nodeId, servers: before.servers + 1, memory: before.memory + 1536, disk: before.disk + 4096 });
    await p.installed(made.id);
    await p.admin('delete', `/api/admin/servers/${made.id}`).expect(204);
    expect(await usage()).toEqual(before.servers === 0 ? undefined : before);
  });

  it('should show every egg variable with the server value, the hidden and read-only ones too', async () => {
    const { id } = await p.createServer({ name: 'Variables', environment: { SERVER_JARFILE: 'paper.jar', BUILD_NUMBER: '7' } });
    await p.admin('patch', `/api/admin/servers/${id}/startup`).send({ environment: { DL_PATH: 'https://example.com/paper.jar' } }).expect(200);
    const res = await p.admin('get', `/api/admin/servers/${id}/startup`).expect(200);
    const egg = (await p.admin('get', `/api/admin/eggs/${p.eggId}`).expect(200)).body.data;
    expect(res.body.data).toEqual({
      startup: egg.startup,
      image: egg.dockerImage,
      skipScripts: false,
      eggStartup: egg.startup,
      dockerImages: egg.dockerImages,
      variables: expect.any(Array),
    });
    const byEnv = new Map((res.body.data.variables as { envVariable: string }[]).map((v) => [v.envVariable, v]));
    expect([...byEnv.keys()].sort()).toEqual(['BUILD_NUMBER', 'DL_PATH', 'MINECRAFT_VERSION', 'SERVER_JARFILE']);
    expect(byEnv.get('DL_PATH')).toEqual({
      envVariable: 'DL_PATH',
      name: expect.any(String),
      description: expect.any(String),
      defaultValue: '',
      serverValue: 'https://example.com/paper.jar',
      rules: 'nullable|string',
      userViewable: false,
      userEditable: false,
    });
    expect(byEnv.get('BUILD_NUMBER')).toMatchObject({ serverValue: '7', defaultValue: 'latest', userEditable: true });
    expect(byEnv.get('SERVER_JARFILE')).toMatchObject({ serverValue: 'paper.jar' });
  });

  it('should refuse these views to others and name an unknown server', async () => {
    await p.asOwner('get', '/api/admin/servers/node-usage').expect(403);
    await p.asOwner('get', '/api/admin/servers?search=a').expect(403);
    const { id } = await p.createServer({ name: 'Private' });
    await p.asOwner('get', `/api/admin/servers/${id}/startup`).expect(403);
    const missing = await p.admin('get', '/api/admin/servers/999999/startup').expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404, code: 'SERVER_NOT_FOUND', message: 'Server not found' });
  });
});
