import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WingsSimulator } from 'test/wings-sim';
import { WsClient } from 'test/wings-sim/testing/harness';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { freePort } from 'test/utils/free-port';
import { dbKinds } from 'test/utils/test-db';

const waitFor = async <T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 25));
  }
};

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the life of a server, against the Wings simulator (%s)', (db) => {
  let t: TestApp;
  let sim: WingsSimulator;
  let adminCookie: string;
  let ownerCookie: string;
  let serverUuid: string;
  let serverId: string;

  const admin = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    t.http()[method](path).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN);
  const owner = (method: 'get' | 'post', path: string) => t.http()[method](path).set('Cookie', ownerCookie).set('Origin', TEST_ORIGIN);

  beforeAll(async () => {
    t = await createTestApp({ db });
    await t.app.listen(0, '127.0.0.1');
    const panelUrl = await t.app.getUrl();
    const adminUser = await createUser(t.app, { admin: true });
    const ownerUser = await createUser(t.app);
    adminCookie = await signIn(t, adminUser.email);
    ownerCookie = await signIn(t, ownerUser.email);
    const adminKey = await createApiKey(t, adminCookie, { permissions: ['nodes.read'] });

    // Location, node (on a port the simulator will take), allocations.
    const location = (await admin('post', '/api/admin/locations').send({ short: 'lab1', long: 'Test lab' }).expect(201)).body.data;
    const port = await freePort();
    const node = (
      await admin('post', '/api/admin/nodes')
        .send({ name: 'sim', fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 100000, locationId: location.id })
        .expect(201)
    ).body.data;
    await admin('post', `/api/admin/nodes/${node.id}/allocations`).send({ ip: '0.0.0.0', ports: ['25565-25567'] }).expect(201);

    // The node's daemon reads its token from the configuration, as `wings configure` would.
    const config = (await t.http().get(`/api/admin/daemon/nodes/${node.id}/configuration`).set('Authorization', `Bearer ${adminKey}`).expect(200)).body
      .data;
    // `remote` is APP_URL (http://panel.test, what browsers use); the daemon reaches this test panel on loopback.
    expect(config.remote).toBe(TEST_ORIGIN);
    sim = new WingsSimulator({
      panelUrl,
      tokenId: config.token_id,
      token: config.token,
      port,
      allowedOrigins: [TEST_ORIGIN],
      remoteTimeoutMs: 5000,
      timing: { lineDelayMs: 5, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
    });
    await sim.start();
    // The panel's clock is the test's; Wings refuses console tokens issued before it booted.
    t.clock.advance(Date.now() - t.clock.now().getTime() + 1000);

    // Nest and egg, imported from the Paper fixture.
    const nest = (await admin('post', '/api/admin/nests').send({ name: 'Minecraft' }).expect(201)).body.data;
    const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
    const egg = (await admin('post', `/api/admin/eggs/import?nestId=${nest.id}`).send(paper).expect(201)).body.data;

    const created = await admin('post', '/api/admin/servers')
      .send({
        name: 'Survival',
        owner_id: ownerUser.id,
        node_id: node.id,
        egg_id: egg.id,
        memory: 2048,
        disk: 10240,
        cpu: 200,
        environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
      })
      .expect(201);
    serverUuid = created.body.data.uuid;
    serverId = created.body.data.id;
  });

  afterAll(async () => {
    await sim?.stop();
    await t?.close();
  });

  it('should have let the simulator fetch the configuration and report the install', async () => {
    const fetched = sim.panel.calls.filter((c) => c.path === `/servers/${serverUuid}` && c.method === 'GET');
    expect(fetched.length).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (await admin('get', `/api/admin/servers/${serverId}`).expect(200)).body.data.installStatus === null);
    const server = (await admin('get', `/api/admin/servers/${serverId}`).expect(200)).body.data;
    expect(server.installedAt).not.toBeNull();
    expect(sim.servers.get(serverUuid)?.config.environment).toMatchObject({ SERVER_JARFILE: 'paper.jar', P_SERVER_LOCATION: 'lab1' });
  });

  it('should list the server for its owner and show its details by uuid and by identifier', async () => {
    const list = await owner('get', '/api/client/servers').expect(200);
    expect(list.body.data.map((s: { uuid: string }) => s.uuid)).toEqual([serverUuid]);
    const byUuid = await owner('get', `/api/client/servers/${serverUuid}`).expect(200);
    const byIdentifier = await owner('get', `/api/client/servers/${serverUuid.slice(0, 8)}`).expect(200);
    expect(byIdentifier.body).toEqual(byUuid.body);
    expect(byUuid.body.data).toMatchObject({
      uuid: serverUuid,
      identifier: serverUuid.slice(0, 8),
      name: 'Survival',
      status: 'offline',
      suspended: false,
      limits: { memory: 2048, disk: 10240, cpu: 200, swap: 0, io: 500 },
      allocations: { primary: { ip: '0.0.0.0', port: 25565, description: '' }, additional: [] },
    });
    expect(byUuid.body.data.permissions).toContain('server.power');
  });

  it('should start, stream console and status over the WebSocket, take a command, stop, and log both power actions', async () => {
    const creds = (await owner('get', `/api/client/servers/${serverUuid}/websocket`).expect(200)).body.data;
    expect(creds.socket).toBe(`${sim.url.replace('http', 'ws')}/api/servers/${serverUuid}/ws`);
    const ws = await WsClient.open(creds.socket, TEST_ORIGIN);
    await ws.auth(creds.token).catch((e: unknown) => {
      throw new Error(`${String(e)}: ${JSON.stringify(ws.messages)}`);
    });

    const start = await owner('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' }).expect(200);
    expect(start.body.data.success).toBe(true);
    await ws.next((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000);
    expect(ws.events('console output').length).toBeGreaterThan(0);

    await owner('post', `/api/client/servers/${serverUuid}/command`).send({ command: 'say hello' }).expect(204);
    await ws.next((m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('say hello'));

    await owner('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'stop' }).expect(200);
    await ws.next((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000);
    ws.close();

    const activity = await owner('get', `/api/client/servers/${serverUuid}/activity`).expect(200);
    const events = activity.body.data.map((a: { event: string }) => a.event);
    expect(events).toEqual(expect.arrayContaining(['server.power.start', 'server.power.stop', 'server.console.command']));
    const start1 = activity.body.data.find((a: { event: string }) => a.event === 'server.power.start');
    expect(start1).toMatchObject({ metadata: { action: 'start' }, actor: { username: expect.any(String) } });
  });
});
