import { LIVE_STATE_MS } from 'src/modules/daemon-gateway/daemon.gateway';
import { WsClient } from 'test/wings-sim/testing/harness';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('the life of a server, against the Wings simulator (%s)', (db) => {
  let p: SimPanel;
  let serverUuid: string;
  let serverId: string;

  beforeAll(async () => {
    p = await startSimPanel(db);
    ({ uuid: serverUuid, id: serverId } = await p.createServer());
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should have let the simulator fetch the configuration and report the install', async () => {
    const fetched = p.sim.panel.calls.filter((c) => c.path === `/servers/${serverUuid}` && c.method === 'GET');
    expect(fetched.length).toBeGreaterThanOrEqual(1);
    await p.installed(serverId);
    const server = (await p.admin('get', `/api/admin/servers/${serverId}`).expect(200)).body.data;
    expect(server.installedAt).not.toBeNull();
    expect(p.sim.servers.get(serverUuid)?.config.environment).toMatchObject({ SERVER_JARFILE: 'paper.jar', P_SERVER_LOCATION: 'lab1' });
  });

  it('should list the server for its owner and show its details by uuid and by identifier', async () => {
    const list = await p.asOwner('get', '/api/client/servers').expect(200);
    expect(list.body.data.map((s: { uuid: string }) => s.uuid)).toEqual([serverUuid]);
    const byUuid = await p.asOwner('get', `/api/client/servers/${serverUuid}`).expect(200);
    const byIdentifier = await p.asOwner('get', `/api/client/servers/${serverUuid.slice(0, 8)}`).expect(200);
    expect(byIdentifier.body).toEqual(byUuid.body);
    expect(byUuid.body.data).toMatchObject({
      uuid: serverUuid,
      identifier: serverUuid.slice(0, 8),
      name: 'Survival',
      status: 'offline',
      suspended: false,
      limits: { memory: 2048, disk: 10240, cpu: 200, swap: 0, io: 500 },
      allocations: { primary: { ip: '0.0.0.0', port: 25565, description: '' }, additional: [] },
      owner: p.owner,
    });
    expect(byUuid.body.data.permissions).toContain('server.power');
  });

  it("should give the details what the server's pages need: SFTP login for the caller, upload size, feature limits, egg and image", async () => {
    await p.admin('patch', `/api/admin/servers/${serverId}/build`).send({ database_limit: 2, allocation_limit: 3, backup_limit: 4 }).expect(200);
    const node = (await p.admin('get', `/api/admin/nodes/${p.nodeId}`).expect(200)).body.data;
    const admin = (await p.admin('get', `/api/admin/servers/${serverId}`).expect(200)).body.data;
    const identifier = serverUuid.slice(0, 8);
    const owned = (await p.asOwner('get', `/api/client/servers/${serverUuid}`).expect(200)).body.data;
    expect(owned).toMatchObject({
      sftp: { host: '127.0.0.1', port: node.daemonSftp, username: `${p.owner.username}.${identifier}` },
      uploadSizeMiB: node.uploadSize,
      featureLimits: { databases: 2, allocations: 3, backups: 4 },
      egg: { id: p.eggId, name: 'Paper' },
      image: admin.image,
    });
    expect(owned.image).toMatch(/^ghcr\.io\//);
    expect(node.uploadSize).toEqual(expect.any(Number));
    // The login is the caller's own: an admin viewing the server signs in to SFTP as themselves.
    const me = (await p.admin('get', '/api/account').expect(200)).body.data;
    const asAdmin = (await p.admin('get', `/api/client/servers/${identifier}`).expect(200)).body.data;
    expect(asAdmin.sftp.username).toBe(`${me.username}.${identifier}`);
    // The list stays lean: none of these.
    const listed = (await p.asOwner('get', '/api/client/servers').expect(200)).body.data[0];
    expect(listed).not.toHaveProperty('sftp');
  });

  it('should start, stream console and status over the WebSocket, take a command, stop, and log both power actions', async () => {
    const creds = (await p.asOwner('get', `/api/client/servers/${serverUuid}/websocket`).expect(200)).body.data;
    expect(creds.socket).toBe(`${p.sim.url.replace('http', 'ws')}/api/servers/${serverUuid}/ws`);
    const ws = await WsClient.open(creds.socket, TEST_ORIGIN);
    await ws.auth(creds.token).catch((e: unknown) => {
      throw new Error(`${String(e)}: ${JSON.stringify(ws.messages)}`);
    });

    const start = await p.asOwner('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' }).expect(200);
    expect(start.body.data.success).toBe(true);
    await ws.next((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000);
    expect(ws.events('console output').length).toBeGreaterThan(0);

    await p.asOwner('post', `/api/client/servers/${serverUuid}/command`).send({ command: 'say hello' }).expect(204);
    await ws.next((m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('say hello'));

    await p.asOwner('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'stop' }).expect(200);
    // The socket's first status (at auth) was already "offline": the stop shows as "stopping", then
    // "offline" as the latest status. (Finding any "offline" let the next test begin mid-stop.)
    await ws.next((m) => m.event === 'status' && m.args?.[0] === 'stopping', 10_000);
    await waitFor(() => ws.events('status').at(-1)?.args?.[0] === 'offline', 10_000);
    ws.close();

    const activity = await p.asOwner('get', `/api/client/servers/${serverUuid}/activity`).expect(200);
    const events = activity.body.data.map((a: { event: string }) => a.event);
    expect(events).toEqual(expect.arrayContaining(['server.power.start', 'server.power.stop', 'server.console.command']));
    const started = activity.body.data.find((a: { event: string }) => a.event === 'server.power.start');
    expect(started).toMatchObject({ metadata: { action: 'start' }, actor: { username: p.owner.username }, timestamp: expect.any(String) });
  });

  it('should ask the daemon once for the state of many requests within LIVE_STATE_MS, again after it, and at once after a power action', async () => {
    const path = `/api/client/servers/${serverUuid}`;
    const asked = () => p.sim.requestsTo(`/api/servers/${serverUuid}`, 'GET').filter((r) => r.path === `/api/servers/${serverUuid}`).length;
    p.t.clock.advance(LIVE_STATE_MS);
    const before = asked();
    const answers = await Promise.all(Array.from({ length: 5 }, () => p.asOwner('get', path).expect(200)));
    await p.asOwner('get', `${path}/resources`).expect(200);
    expect(answers.map((r) => r.body.data.status)).toEqual(Array(5).fill('offline'));
    expect(asked()).toBe(before + 1);
    // A console token never rests on a shared answer (the daemon may have lost the server since): it
    // asks, and its answer is the one shared from then on.
    await p.asOwner('get', `${path}/websocket`).expect(200);
    expect(asked()).toBe(before + 2);

    p.t.clock.advance(LIVE_STATE_MS - 1);
    await p.asOwner('get', path).expect(200);
    expect(asked()).toBe(before + 2);
    p.t.clock.advance(1);
    await p.asOwner('get', path).expect(200);
    expect(asked()).toBe(before + 3);

    await p.asOwner('post', `${path}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(serverUuid)?.state === 'running');
    expect((await p.asOwner('get', path).expect(200)).body.data.status).toBe('running');
    expect(asked()).toBe(before + 4);
    await p.asOwner('post', `${path}/power`).send({ action: 'kill' }).expect(200);
    await waitFor(() => p.sim.servers.get(serverUuid)?.state === 'offline');
    expect((await p.asOwner('get', path).expect(200)).body.data.status).toBe('offline');
  });
});
