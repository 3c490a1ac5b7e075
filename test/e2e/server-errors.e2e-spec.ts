import { DataSource } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppConfigService } from 'src/config/app-config.service';
import { LIVE_STATE_MS, nodeTokenContext } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { WingsSimulator } from 'test/wings-sim';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { closedPort, DECIMAL_ID, denial, FakeDaemon, Json, LOOPBACK, SYSTEM_INFO, UNAUTHENTICATED } from 'test/utils/nodes';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

/*
 * One test (or group) per error of docs/api.md#errors that concerns servers, nodes, the daemon or the
 * WebSocket. Rows that cannot be reached today, and why:
 * - 403 "caller lacks the needed permission": owners and admins hold every server permission and
 *   anyone else gets 404 (404 for anything the caller may not see); only subusers, not
 *   built yet, could hold some permissions and lack others.
 * - 500 "websocket: server has no resolved node": server.node_id is NOT NULL with a RESTRICT
 *   foreign key, so a server always has its node; the test below shows the schema refusing both ways.
 */
const hasPaper = eggFixtureFiles().includes('egg-paper.json');

const SERVER_NOT_FOUND = denial(404, 'SERVER_NOT_FOUND', 'Server not found');
const IDENTIFIER_INVALID = denial(400, 'SERVER_IDENTIFIER_INVALID', 'Missing server identifier');
const WINGS_NOT_FOUND = 'The requested resource does not exist on this instance.';

type Call = { method: 'get' | 'post'; path: (ref: string) => string; body?: Json };
/** Every client route on one server, each with a body it accepts. */
const SERVER_ROUTES: [string, Call][] = [
  ['details', { method: 'get', path: (s) => `/api/client/servers/${s}` }],
  ['power', { method: 'post', path: (s) => `/api/client/servers/${s}/power`, body: { action: 'start' } }],
  ['command', { method: 'post', path: (s) => `/api/client/servers/${s}/command`, body: { command: 'say hi' } }],
  ['resources', { method: 'get', path: (s) => `/api/client/servers/${s}/resources` }],
  ['websocket', { method: 'get', path: (s) => `/api/client/servers/${s}/websocket` }],
  ['activity', { method: 'get', path: (s) => `/api/client/servers/${s}/activity` }],
];

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('server, node, daemon and websocket errors (%s)', (db) => {
  let p: SimPanel;
  let t: TestApp;
  let sim: WingsSimulator;
  let simToken: string;
  let simNodeId: string;
  let strangerCookie: string;
  /** Installed on the simulator through the admin API. */
  let serverUuid: string;
  let serverId: string;

  type Requester = (method: 'get' | 'post', path: string) => ReturnType<ReturnType<TestApp['http']>['get']>;
  const stranger: Requester = (method, path) => t.http()[method](path).set('Cookie', strangerCookie).set('Origin', TEST_ORIGIN);
  const owned: Requester = (method, path) => p.asOwner(method, path);
  const as = (who: Requester, { method, path, body }: Call, ref: string) => {
    const req = who(method, path(ref));
    return body === undefined ? req : req.send(body);
  };
  const activityOf = async (uuid: string): Promise<Json[]> => (await owned('get', `/api/client/servers/${uuid}/activity`).expect(200)).body.data;
  const daemonError = (statusCode: number, code: string, message: string, details: Json): Json => ({
    statusCode,
    code,
    message,
    details,
    requestId: expect.any(String),
  });
  /** A server row of the owner (unknown to the simulator) on the simulator's node. */
  const ghostServer = (overrides: Partial<ServerEntity> = {}): Promise<ServerEntity> =>
    createServerRow(t.app, { node: { id: simNodeId }, egg: { id: p.eggId }, owner: p.owner, overrides });
  /** A server row (unknown to the simulator) on a node of its own; `node` overrides the node row. */
  const serverOnOwnNode = async (node: Partial<NodeEntity>): Promise<{ node: NodeEntity; token: string; server: ServerEntity }> => {
    const row = await createNodeRow(t.app, node);
    return { ...row, server: await createServerRow(t.app, { node: row.node, egg: { id: p.eggId }, owner: p.owner }) };
  };
  /** After a fault, waits until the node answers again (kept-alive sockets may have been cut). */
  const recover = () => waitFor(async () => (await owned('get', `/api/client/servers/${serverUuid}/resources`)).status === 200);

  beforeAll(async () => {
    p = await startSimPanel(db);
    ({ t, sim, nodeId: simNodeId } = p);
    simToken = sim.configuration.token;
    const other = await createUser(t.app);
    strangerCookie = await signIn(t, other.email);
    ({ uuid: serverUuid, id: serverId } = await p.createServer());
    await p.installed(serverId);
    await waitFor(() => sim.servers.get(serverUuid)?.installing === false);
  });

  beforeEach(() => {
    // Each case sees the daemon as it is now: the panel shares a server's state for LIVE_STATE_MS.
    t.clock.advance(LIVE_STATE_MS);
  });

  afterEach(async () => {
    // No test leaves a fault or a changed token behind.
    const faulted = sim.resetFaults() || sim.configuration.token !== simToken;
    sim.setConfiguration({ token: simToken });
    if (faulted) {
      await recover();
    }
  });

  afterAll(async () => {
    await p?.close();
  });

  describe('401 Authentication required', () => {
    it.each(SERVER_ROUTES)('should refuse %s without credentials, or with an unknown API key', async (_name, call) => {
      const anonymous = t.http()[call.method](call.path(serverUuid));
      const res = await (call.body ? anonymous.send(call.body) : anonymous);
      expect([res.status, res.body]).toEqual([401, UNAUTHENTICATED]);
      const badKey = t.http()[call.method](call.path(serverUuid)).set('Authorization', 'Bearer not-a-real-key');
      const res2 = await (call.body ? badKey.send(call.body) : badKey);
      expect([res2.status, res2.body]).toEqual([401, UNAUTHENTICATED]);
    });

    it('should refuse the server list without credentials', async () => {
      const res = await t.http().get('/api/client/servers');
      expect([res.status, res.body]).toEqual([401, UNAUTHENTICATED]);
    });
  });

  describe('403 permission / 404 not found (404 for anything the caller may not see)', () => {
    it.each(SERVER_ROUTES)('should answer %s on someone else’s server with the same 404 as an unknown server', async (_name, call) => {
      const before = sim.requests.length;
      for (const ref of [serverUuid, serverUuid.slice(0, 8)]) {
        const res = await as(stranger, call, ref);
        expect([ref, res.status, res.body]).toEqual([ref, 404, SERVER_NOT_FOUND]);
      }
      const unknown = await as(stranger, call, '0f0e0d0c-0b0a-4909-8807-060504030201');
      expect([unknown.status, unknown.body]).toEqual([404, SERVER_NOT_FOUND]);
      // The daemon was never asked.
      expect(sim.requests.length).toBe(before);
    });

    it('should not list someone else’s server', async () => {
      const res = await stranger('get', '/api/client/servers').expect(200);
      expect(res.body.data).toEqual([]);
    });

    it('should let an admin who does not own the server in, with every permission', async () => {
      const res = await p.admin('get', `/api/client/servers/${serverUuid}`).expect(200);
      expect(res.body.data.permissions).toContain('server.power');
    });
  });

  describe('404 server not found', () => {
    it.each([
      ['an unknown uuid', '0f0e0d0c-0b0a-4909-8807-060504030201'],
      ['an unknown identifier', 'zz99zz99'],
    ])('should answer %s with 404 on every route', async (_name, ref) => {
      for (const [name, call] of SERVER_ROUTES) {
        const res = await as(owned, call, ref);
        expect([name, res.status, res.body]).toEqual([name, 404, SERVER_NOT_FOUND]);
      }
    });
  });

  describe('400 Missing server identifier', () => {
    it.each(['not-a-server!', 'abc', serverUuidLike('x'), '123456789', '%20'])('should refuse the identifier %p on every route', async (ref) => {
      for (const [name, call] of SERVER_ROUTES) {
        const res = await as(owned, call, ref);
        expect([name, res.status, res.body]).toEqual([name, 400, IDENTIFIER_INVALID]);
      }
    });

    it('should check authentication before the identifier', async () => {
      const res = await t.http().get('/api/client/servers/not-a-server!');
      expect([res.status, res.body]).toEqual([401, UNAUTHENTICATED]);
    });
  });

  describe('400 invalid power action', () => {
    it.each(['jump', 'START', '', 'start '])('should refuse %p with the allowed list, and not call the daemon', async (action) => {
      const before = sim.requests.length;
      const res = await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action });
      expect([res.status, res.body]).toEqual([
        400,
        {
          statusCode: 400,
          code: 'INVALID_POWER_ACTION',
          message: 'Invalid power action, allowed actions are: start, stop, restart, kill',
          details: { allowed: ['start', 'stop', 'restart', 'kill'] },
          requestId: expect.any(String),
        },
      ]);
      expect(sim.requests.length).toBe(before);
    });

    it('should refuse a missing or non-string action as a validation error', async () => {
      const res = await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 5 });
      expect([res.status, res.body.code, res.body.details]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'action', message: 'action must be a string' }]]);
    });
  });

  describe('daemon HTTP errors pass through with their status, message and nodeId', () => {
    it('should pass the simulator’s 502 for a command to a stopped server through', async () => {
      expect(sim.servers.get(serverUuid)?.containerRunning).toBe(false);
      const res = await owned('post', `/api/client/servers/${serverUuid}/command`).send({ command: 'say hi' });
      expect([res.status, res.body]).toEqual([
        502,
        daemonError(502, 'DAEMON_HTTP_ERROR', 'Cannot send commands to a stopped server instance.', { nodeId: simNodeId, status: 502 }),
      ]);
      expect((await activityOf(serverUuid)).filter((a) => a.event === 'server.console.command')).toEqual([]);
    });

    it('should pass the simulator’s 404 for a server it does not know through on resources', async () => {
      const ghost = await ghostServer();
      const res = await owned('get', `/api/client/servers/${ghost.uuid}/resources`);
      expect([res.status, res.body]).toEqual([404, daemonError(404, 'DAEMON_HTTP_ERROR', WINGS_NOT_FOUND, { nodeId: simNodeId, status: 404 })]);
    });

    it('should carry the daemon’s request id when it sends one (its generic 500)', async () => {
      sim.faults.status500 = true;
      const res = await owned('get', `/api/client/servers/${serverUuid}/resources`);
      expect([res.status, res.body]).toEqual([
        500,
        daemonError(500, 'DAEMON_HTTP_ERROR', 'An unexpected error was encountered while processing this request', {
          nodeId: simNodeId,
          status: 500,
          daemonRequestId: expect.any(String),
        }),
      ]);
    });
  });

  describe('power actions and their activity entries', () => {
    it('should send start to the daemon and log server.power.start with actor, time and metadata', async () => {
      const res = await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' });
      expect([res.status, res.body]).toEqual([200, { data: { success: true, message: 'The start action was sent to the server' } }]);
      expect(sim.requestsTo(`/api/servers/${serverUuid}/power`, 'POST').at(-1)?.body).toBe('{"action":"start"}');
      const entries = (await activityOf(serverUuid)).filter((a) => a.event.startsWith('server.power.'));
      expect(entries).toEqual([
        {
          id: expect.stringMatching(DECIMAL_ID),
          event: 'server.power.start',
          actor: { id: p.owner.id, username: p.owner.username },
          metadata: { action: 'start' },
          ip: expect.stringMatching(LOOPBACK),
          via: 'session',
          timestamp: t.clock.now().toISOString(),
        },
      ]);
      await waitFor(() => sim.servers.get(serverUuid)?.state === 'running');
    });

    it('should log kill too, newest first', async () => {
      t.clock.advance(1000);
      await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'kill' }).expect(200);
      const entries = (await activityOf(serverUuid)).filter((a) => a.event.startsWith('server.power.'));
      expect(entries.map((e) => [e.event, e.metadata, e.timestamp])).toEqual([
        ['server.power.kill', { action: 'kill' }, t.clock.now().toISOString()],
        // 1 s here, and LIVE_STATE_MS by beforeEach.
        ['server.power.start', { action: 'start' }, new Date(t.clock.now().getTime() - 1000 - LIVE_STATE_MS).toISOString()],
      ]);
      await waitFor(() => sim.servers.get(serverUuid)?.state === 'offline');
    });
  });

  describe('403 daemon authentication failed', () => {
    it('should answer 403 DAEMON_AUTH_FAILED when the daemon no longer accepts the node token, and log nothing', async () => {
      const logged = (await activityOf(serverUuid)).length;
      sim.setConfiguration({ token: 'other' });
      const res = await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' });
      expect([res.status, res.body]).toEqual([
        403,
        daemonError(403, 'DAEMON_AUTH_FAILED', 'daemon authentication failed: You are not authorized to access this endpoint.', {
          nodeId: simNodeId,
          status: 403,
        }),
      ]);
      expect(res.body.message.startsWith('daemon authentication failed')).toBe(true);
      expect(await activityOf(serverUuid)).toHaveLength(logged);
    });

    it('should answer the same on resources and command', async () => {
      sim.setConfiguration({ token: 'other' });
      const resources = await owned('get', `/api/client/servers/${serverUuid}/resources`);
      const command = await owned('post', `/api/client/servers/${serverUuid}/command`).send({ command: 'say hi' });
      for (const res of [resources, command]) {
        expect([res.status, res.body.code, res.body.details]).toEqual([403, 'DAEMON_AUTH_FAILED', { nodeId: simNodeId, status: 403 }]);
      }
    });
  });

  describe('502 daemon error with no HTTP status', () => {
    it('should answer 502 DAEMON_BAD_RESPONSE when the daemon’s JSON cannot be read', async () => {
      sim.faults.malformedJson = true;
      const res = await owned('get', `/api/client/servers/${serverUuid}/resources`);
      expect([res.status, res.body]).toEqual([
        502,
        daemonError(502, 'DAEMON_BAD_RESPONSE', 'The daemon sent a response that could not be read', { nodeId: simNodeId, status: 200 }),
      ]);
    });
  });

  describe('503 daemon unavailable', () => {
    it('should answer 503 when the daemon cuts every connection, and log no power action', async () => {
      const logged = (await activityOf(serverUuid)).length;
      sim.faults.down = true;
      for (const res of [
        await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' }),
        await owned('get', `/api/client/servers/${serverUuid}/resources`),
        await owned('post', `/api/client/servers/${serverUuid}/command`).send({ command: 'say hi' }),
      ]) {
        expect([res.status, res.body]).toEqual([
          503,
          daemonError(503, 'DAEMON_UNAVAILABLE', expect.stringMatching(/^daemon unavailable: \S+/), { nodeId: simNodeId }),
        ]);
      }
      expect(await activityOf(serverUuid)).toHaveLength(logged);
    });

    it('should answer 503 daemon unavailable: ECONNREFUSED when nothing listens on the node’s port', async () => {
      const { node, server } = await serverOnOwnNode({ fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
      const res = await owned('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' });
      expect([res.status, res.body]).toEqual([
        503,
        daemonError(503, 'DAEMON_UNAVAILABLE', 'daemon unavailable: ECONNREFUSED', { nodeId: node.id }),
      ]);
      // The details page still answers, with the state it cannot know.
      const details = await owned('get', `/api/client/servers/${server.uuid}`).expect(200);
      expect(details.body.data.status).toBe('unknown');
    });
  });

  describe('500 Failed to send power action', () => {
    it('should answer 500 when the node’s daemon token cannot be opened (APP_KEY changed since it was sealed)', async () => {
      // Honest trigger: the only non-daemon failure in the power path is building the request,
      // i.e. opening the node's sealed token. Every daemon failure has its own row above.
      // Never contacted: the request cannot even be built.
      const { node, server } = await serverOnOwnNode({ fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
      const otherKey = new SecretBox(AppConfigService.fromEnv({ NODE_ENV: 'test', APP_KEY: 'a-different-app-key-0123456789-abcdefghij' }));
      await t.app
        .get(DataSource)
        .getRepository(NodeEntity)
        .update({ id: node.id }, { tokenSecret: otherKey.seal('x'.repeat(64), nodeTokenContext(node)) });
      const res = await owned('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' });
      expect([res.status, res.body]).toEqual([500, denial(500, 'POWER_ACTION_FAILED', 'Failed to send power action')]);
      expect(await activityOf(server.uuid)).toEqual([]);
    });
  });

  describe('500 Unexpected daemon error', () => {
    it('should answer 500 when the node speaks plain HTTP but is configured for https (TLS handshake failure)', async () => {
      const { node, server } = await serverOnOwnNode({ fqdn: '127.0.0.1', scheme: 'https', daemonListen: Number(new URL(sim.url).port) });
      for (const res of [
        await owned('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }),
        await owned('get', `/api/client/servers/${server.uuid}/resources`),
      ]) {
        expect([res.status, res.body]).toEqual([
          500,
          daemonError(500, 'DAEMON_ERROR', 'Unexpected daemon error, unable to perform the operation', { nodeId: node.id }),
        ]);
      }
    });
  });

  describe('websocket credentials', () => {
    it('should hand out a token and socket for the simulator’s server', async () => {
      const res = await owned('get', `/api/client/servers/${serverUuid}/websocket`).expect(200);
      expect(res.body.data).toEqual({ token: expect.any(String), socket: `${sim.url.replace('http', 'ws')}/api/servers/${serverUuid}/ws` });
    });

    it('should answer 502 Failed to prepare websocket session when the daemon answers 500', async () => {
      sim.faults.status500 = true;
      const res = await owned('get', `/api/client/servers/${serverUuid}/websocket`);
      expect([res.status, res.body]).toEqual([
        502,
        daemonError(502, 'WEBSOCKET_PREPARE_FAILED', 'Failed to prepare websocket session', { nodeId: simNodeId }),
      ]);
    });

    it('should answer 502 Failed to prepare websocket session when the daemon is down', async () => {
      sim.faults.down = true;
      const res = await owned('get', `/api/client/servers/${serverUuid}/websocket`);
      expect([res.status, res.body]).toEqual([
        502,
        daemonError(502, 'WEBSOCKET_PREPARE_FAILED', 'Failed to prepare websocket session', { nodeId: simNodeId }),
      ]);
    });

    it('should answer unavailable with diagnostics when the daemon does not know the server', async () => {
      const ghost = await ghostServer({ status: 'install_failed' });
      const res = await owned('get', `/api/client/servers/${ghost.uuid}/websocket`);
      expect([res.status, res.body]).toEqual([
        200,
        {
          data: {
            unavailable: true,
            message: 'The server is not available on its node right now',
            diagnostics: {
              error: WINGS_NOT_FOUND,
              serverUuid: ghost.uuid,
              serverIdentifier: ghost.identifier,
              nodeId: simNodeId,
              serverStatus: 'install_failed',
            },
          },
        },
      ]);
    });

    it('should answer unavailable once the simulator has lost the server', async () => {
      const saved = sim.servers.get(serverUuid)!;
      sim.servers.delete(serverUuid);
      try {
        const res = await owned('get', `/api/client/servers/${serverUuid}/websocket`);
        expect([res.status, res.body.data?.unavailable, res.body.data?.diagnostics]).toEqual([
          200,
          true,
          { error: WINGS_NOT_FOUND, serverUuid, serverIdentifier: serverUuid.slice(0, 8), nodeId: simNodeId, serverStatus: null },
        ]);
      } finally {
        sim.servers.set(serverUuid, saved);
      }
    });

    it('should answer unavailable when the server was lost just after the panel shared its state from the daemon', async () => {
      // The resources page fills the shared live state (the test clock stands still, so it stays fresh).
      expect((await owned('get', `/api/client/servers/${serverUuid}/resources`).expect(200)).body.data.currentState).toEqual(expect.any(String));
      const saved = sim.servers.get(serverUuid)!;
      sim.servers.delete(serverUuid);
      try {
        const res = await owned('get', `/api/client/servers/${serverUuid}/websocket`);
        expect([res.status, res.body]).toEqual([
          200,
          {
            data: {
              unavailable: true,
              message: 'The server is not available on its node right now',
              diagnostics: { error: WINGS_NOT_FOUND, serverUuid, serverIdentifier: serverUuid.slice(0, 8), nodeId: simNodeId, serverStatus: null },
            },
          },
        ]);
        // What the daemon said now replaced the shared state: the resources page no longer shows the lost server.
        expect((await owned('get', `/api/client/servers/${serverUuid}/resources`)).status).toBe(404);
      } finally {
        sim.servers.set(serverUuid, saved);
      }
    });

    it('cannot reach 500 "server has no resolved node": node_id is NOT NULL and the node foreign key is RESTRICT', async () => {
      const ds = t.app.get(DataSource);
      await expect(ds.query('UPDATE server SET node_id = NULL WHERE id = $1', [serverId])).rejects.toThrow(/null value in column "node_id"/);
      await expect(ds.query('DELETE FROM node WHERE id = $1', [simNodeId])).rejects.toThrow(/foreign key/);
    });
  });

  describe('daemon callbacks (/api/remote)', () => {
    it('should answer 401 Missing or invalid daemon authentication token without a Bearer token', async () => {
      const res = await t.http().get(`/api/remote/servers/${serverUuid}`);
      expect([res.status, res.body.message, res.body.errors?.[0]?.status]).toEqual([401, 'Missing or invalid daemon authentication token', '401']);
    });

    it('should answer 403 not authorized to the simulator when it calls back with a wrong token secret', async () => {
      sim.faults.wrongToken = true;
      const before = sim.panel.calls.length;
      // Starting makes the simulator sync the server's configuration from the panel first.
      await owned('post', `/api/client/servers/${serverUuid}/power`).send({ action: 'start' }).expect(200);
      const call = await waitFor(() => sim.panel.calls.slice(before).find((c) => c.path === `/servers/${serverUuid}` && c.status !== null));
      expect(call).toMatchObject({ method: 'GET', status: 403 });
      // The failed sync keeps the server from starting: once the start has given up its power lock, the
      // simulator has decided, and a start that went ahead would have left the server starting.
      await waitFor(() => sim.servers.get(serverUuid)?.lock.locked === false);
      expect(sim.servers.get(serverUuid)?.state).toBe('offline');
    });
  });

  describe('GET /api/admin/daemon/system: node selection', () => {
    it('should answer 400 asking for the node query parameter while several nodes exist', async () => {
      await createNodeRow(t.app);
      const res = await p.admin('get', '/api/admin/daemon/system');
      expect([res.status, res.body]).toEqual([400, denial(400, 'NODE_REQUIRED', 'Several nodes exist; select one with the node query parameter')]);
    });

    it('should ask the selected node’s daemon', async () => {
      const res = await p.admin('get', `/api/admin/daemon/system?node=${simNodeId}`).expect(200);
      expect(res.body.data).toMatchObject({ os: expect.any(String), version: expect.any(String) });
      expect(sim.requestsTo('/api/system', 'GET').length).toBeGreaterThan(0);
    });

    it('should pass a daemon failure through for the selected node', async () => {
      sim.faults.down = true;
      const res = await p.admin('get', `/api/admin/daemon/system?node=${simNodeId}`);
      expect([res.status, res.body]).toEqual([
        503,
        daemonError(503, 'DAEMON_UNAVAILABLE', expect.stringMatching(/^daemon unavailable: \S+/), { nodeId: simNodeId }),
      ]);
    });
  });
});

describe.each(dbKinds(['postgres']))('GET /api/admin/daemon/system with no node, then one (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  let daemon: FakeDaemon;

  beforeAll(async () => {
    t = await createTestApp({ db });
    cookie = await signIn(t, (await createUser(t.app, { admin: true })).email);
    daemon = await FakeDaemon.start();
  });

  afterAll(async () => {
    await daemon?.stop();
    await t?.close();
  });

  it('should answer 503 asking to add a node first while there is none', async () => {
    const res = await t.http().get('/api/admin/daemon/system').set('Cookie', cookie);
    expect([res.status, res.body]).toEqual([503, denial(503, 'NO_NODE_CONFIGURED', 'No node is configured; add a node first')]);
  });

  it('should use the only node without a node query parameter', async () => {
    await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemon.port });
    const res = await t.http().get('/api/admin/daemon/system').set('Cookie', cookie);
    expect([res.status, res.body]).toEqual([200, { data: SYSTEM_INFO }]);
  });
});

/** A uuid-shaped string with a non-hex character. */
function serverUuidLike(bad: string): string {
  return `0f0e0d0c-0b0a-4909-8807-06050403020${bad}`;
}
