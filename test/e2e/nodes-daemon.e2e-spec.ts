import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import {
  closedPort,
  DaemonCall,
  DECIMAL_ID,
  expectError,
  expectValidation,
  FakeDaemon,
  Json,
  loadNode,
  localNodeBody,
  LOOPBACK,
  Method,
  nodeBody,
  sealedTokenOf,
  SYSTEM_INFO,
} from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const NODES = '/api/admin/nodes';
const AUDIT = '/api/admin/audit-logs';
const configPath = (id: string) => `/api/admin/daemon/nodes/${id}/configuration`;
const PUSHED = { configurationPushed: true };
const NOT_PUSHED = { configurationPushed: false };
const IGNORED = 'The daemon ignores configuration updates (ignore_panel_config_updates)';

/** What the panel must send to Wings for one configuration push. */
const pushCall = (authorization: string, body: Json): DaemonCall => ({
  method: 'POST',
  path: '/api/update',
  authorization,
  contentType: 'application/json',
  body,
});

describe.each(dbKinds(['postgres']))('node configuration pushes and daemon calls (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;
  let readKey: string;
  let daemons: FakeDaemon[] = [];

  const as = (method: Method, path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const countAudit = async (): Promise<number> => (await t.app.get(DataSource).query<{ n: number }[]>('SELECT count(*)::int AS n FROM audit_log'))[0].n;
  const auditOf = async (id: string): Promise<Json[]> => (await as('get', `${AUDIT}?targetType=node&targetId=${id}`).expect(200)).body.data;
  const auditEntry = (action: string, id: string, changes: Json): Json => ({
    id: expect.stringMatching(DECIMAL_ID),
    actor: { id: admin.id, username: admin.username, via: 'session' },
    action,
    target: { type: 'node', id, name: expect.any(String), parentId: null },
    changes,
    ip: expect.stringMatching(LOOPBACK),
    createdAt: t.clock.now().toISOString(),
  });
  const configOf = async (id: string): Promise<Json> => (await t.http().get(configPath(id)).set('x-api-key', readKey).expect(200)).body.data;

  const startDaemon = async (): Promise<FakeDaemon> => {
    const daemon = await FakeDaemon.start();
    daemons.push(daemon);
    return daemon;
  };
  /** A fake daemon and a node that points at it; `token` is the node's daemon token. */
  const nodeWithDaemon = async (overrides: Json = {}): Promise<{ daemon: FakeDaemon; node: Json; token: string }> => {
    const daemon = await startDaemon();
    const node = (await as('post', NODES).send(localNodeBody(daemon.port, overrides)).expect(201)).body.data;
    expect(daemon.calls).toEqual([]);
    return { daemon, node, token: (await configOf(node.id)).token };
  };
  const storedBody = async (id: string): Promise<Json> => nodeBody((await loadNode(t, id))!);

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    readKey = await createApiKey(t, cookie, { permissions: ['nodes.read'] });
  });

  afterEach(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    daemons = [];
    // Nodes here are 127.0.0.1:<ephemeral port>; once a fake daemon stops, the OS may hand its port
    // to the next one, and a leftover node with that baseUrl would make the next create a 409.
    await t.app.get(DataSource).query('DELETE FROM node');
  });

  afterAll(async () => {
    await t.close();
  });

  describe('PATCH /nodes/{id}', () => {
    it('should save a name change, answer meta.configurationPushed false and send the daemon nothing', async () => {
      const { daemon, node } = await nodeWithDaemon();
      const res = await as('patch', `${NODES}/${node.id}`).send({ name: 'Renamed node' }).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: NOT_PUSHED });
      expect(res.body.data).toEqual({ ...node, name: 'Renamed node', updatedAt: expect.any(String) });
      expect(daemon.calls).toEqual([]);
      expect(await auditOf(node.id)).toEqual([
        auditEntry('node.updated', node.id, { before: { name: node.name }, after: { name: 'Renamed node' } }),
        expect.objectContaining({ action: 'node.created' }),
      ]);
    });

    it('should push the new configuration with Bearer <token> alone when uploadSize changes, and record only that field', async () => {
      const { daemon, node, token } = await nodeWithDaemon();
      const res = await as('patch', `${NODES}/${node.id}`).send({ uploadSize: 512, name: node.name }).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: PUSHED });
      expect(res.body.data.uploadSize).toBe(512);
      const config = await configOf(node.id);
      expect(config.api.upload_limit).toBe(512);
      expect(daemon.calls).toEqual([pushCall(`Bearer ${token}`, config)]);
      expect(daemon.calls[0].authorization).not.toContain('.');
      expect((await auditOf(node.id))[0]).toEqual(auditEntry('node.updated', node.id, { before: { uploadSize: 100 }, after: { uploadSize: 512 } }));
    });

    it('should send Bearer <tokenIdentifier>.<token> when the node uses daemonAuth combined', async () => {
      const { daemon, node, token } = await nodeWithDaemon({ daemonAuth: 'combined' });
      const res = await as('patch', `${NODES}/${node.id}`).send({ daemonSftp: 2222 }).expect(200);
      expect(res.body.meta).toEqual(PUSHED);
      expect(daemon.calls).toEqual([pushCall(`Bearer ${node.tokenIdentifier}.${token}`, await configOf(node.id))]);
    });

    it.each([
      ['behindProxy', { behindProxy: true }, (c: Json) => expect(c.api.ssl.enabled).toBe(false)],
      ['uploadSize', { uploadSize: 1 }, (c: Json) => expect(c.api.upload_limit).toBe(1)],
      ['daemonBase', { daemonBase: '/srv/volumes' }, (c: Json) => expect(c.system.data).toBe('/srv/volumes')],
      ['daemonSftp', { daemonSftp: 2200 }, (c: Json) => expect(c.system.sftp.bind_port).toBe(2200)],
      ['fqdn', { fqdn: 'LocalHost' }, (c: Json) => expect(c.api.ssl.cert).toBe('/etc/letsencrypt/live/localhost/fullchain.pem')],
      ['scheme', { scheme: 'https' }, (c: Json) => expect(c.api.ssl.enabled).toBe(true)],
    ])('should push through the old address and credentials when %s changes', async (_field, change, check) => {
      const { daemon, node, token } = await nodeWithDaemon();
      const res = await as('patch', `${NODES}/${node.id}`).send(change).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: PUSHED });
      const config = await configOf(node.id);
      check(config);
      expect(daemon.calls).toEqual([pushCall(`Bearer ${token}`, config)]);
    });

    it('should push to the old port and call the new one afterwards when daemonListen changes', async () => {
      const { daemon: oldDaemon, node, token } = await nodeWithDaemon();
      const newDaemon = await startDaemon();
      const res = await as('patch', `${NODES}/${node.id}`).send({ daemonListen: newDaemon.port }).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: PUSHED });
      expect(res.body.data.baseUrl).toBe(`http://127.0.0.1:${newDaemon.port}`);
      const config = await configOf(node.id);
      expect(config.api.port).toBe(newDaemon.port);
      expect(oldDaemon.calls).toEqual([pushCall(`Bearer ${token}`, config)]);
      expect(newDaemon.calls).toEqual([]);
      expect((await as('get', `${NODES}/${node.id}/system`).expect(200)).body).toEqual({ data: SYSTEM_INFO });
      expect(oldDaemon.calls).toHaveLength(1);
      expect(newDaemon.calls).toEqual([{ method: 'GET', path: '/api/system', authorization: `Bearer ${token}`, contentType: 'application/json', body: undefined }]);
    });

    it.each([
      ['name', { name: 'other' }],
      ['description', { description: 'described' }],
      ['public', { public: false }],
      ['maintenanceMode', { maintenanceMode: true }],
      ['allowInsecure', { allowInsecure: true }],
      ['memory', { memory: 1 }],
      ['disk', { disk: 1 }],
      ['memoryOverallocate', { memoryOverallocate: 10 }],
      ['diskOverallocate', { diskOverallocate: 10 }],
      ['daemonAuth', { daemonAuth: 'combined' }],
      ['an unchanged uploadSize', { uploadSize: 100 }],
    ])('should not push when only %s is sent', async (_label, change) => {
      const { daemon, node } = await nodeWithDaemon();
      const res = await as('patch', `${NODES}/${node.id}`).send(change).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: NOT_PUSHED });
      expect(daemon.calls).toEqual([]);
    });

    it('should save the change and answer 200 with configurationPushed false and a daemon unavailable pushError when the daemon is down', async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.goDown();
      const res = await as('patch', `${NODES}/${node.id}`).send({ uploadSize: 256 }).expect(200);
      expect(res.body).toEqual({
        data: await storedBody(node.id),
        meta: { configurationPushed: false, pushError: expect.stringMatching(/^daemon unavailable/) },
      });
      expect((await loadNode(t, node.id))!.uploadSize).toBe(256);
      expect((await configOf(node.id)).api.upload_limit).toBe(256);
      expect((await auditOf(node.id))[0]).toEqual(auditEntry('node.updated', node.id, { before: { uploadSize: 100 }, after: { uploadSize: 256 } }));
    });

    it('should report pushError when the daemon refuses the token or ignores panel updates, keeping the change', async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => ({ status: 403, body: { error: 'You are not authorized to access this endpoint.', request_id: 'r403' } });
      const refused = await as('patch', `${NODES}/${node.id}`).send({ uploadSize: 150 }).expect(200);
      expect(refused.body).toEqual({
        data: await storedBody(node.id),
        meta: { configurationPushed: false, pushError: expect.stringMatching(/^daemon authentication failed/) },
      });
      daemon.reply = () => ({ status: 200, body: { applied: false } });
      const ignored = await as('patch', `${NODES}/${node.id}`).send({ uploadSize: 160 }).expect(200);
      expect(ignored.body).toEqual({ data: await storedBody(node.id), meta: { configurationPushed: false, pushError: IGNORED } });
      expect(daemon.updates()).toHaveLength(2);
      expect((await loadNode(t, node.id))!.uploadSize).toBe(160);
    });

    it('should answer 400 and neither save nor push when the patch is invalid', async () => {
      const { daemon, node } = await nodeWithDaemon();
      const before = await countAudit();
      for (const [body, details] of [
        [{ uploadSize: 0 }, [{ field: 'uploadSize', message: 'uploadSize must not be less than 1' }]],
        [{ daemonListen: 70000 }, [{ field: 'daemonListen', message: 'daemonListen must not be greater than 65535' }]],
        [{ scheme: 'ftp' }, [{ field: 'scheme', message: 'scheme must be one of the following values: http, https' }]],
        [{ fqdn: null }, [{ field: 'fqdn', message: 'fqdn must be a string' }]],
        [{ memory: null }, [{ field: 'memory', message: 'memory must be an integer number' }]],
        [{ tokenIdentifier: 'x' }, [{ field: 'tokenIdentifier', message: 'property tokenIdentifier should not exist' }]],
      ] as [Json, Json[]][]) {
        expectValidation(await as('patch', `${NODES}/${node.id}`).send(body), details);
      }
      expect(await storedBody(node.id)).toEqual(node);
      expect(await countAudit()).toBe(before);
      expect(daemon.calls).toEqual([]);
    });

    it('should answer 409 NODE_BASE_URL_TAKEN and 404 LOCATION_NOT_FOUND without saving or pushing', async () => {
      const { daemon, node } = await nodeWithDaemon();
      const { node: other } = await nodeWithDaemon();
      const before = await countAudit();
      expectError(
        await as('patch', `${NODES}/${node.id}`).send({ daemonListen: other.daemonListen, uploadSize: 999 }),
        409,
        'NODE_BASE_URL_TAKEN',
        'Another node already uses this scheme, FQDN and daemon port',
      );
      expectError(await as('patch', `${NODES}/${node.id}`).send({ locationId: '999999999', uploadSize: 999 }), 404, 'LOCATION_NOT_FOUND', 'Location not found');
      expect(await storedBody(node.id)).toEqual(node);
      expect(await countAudit()).toBe(before);
      expect(daemon.calls).toEqual([]);
    });
  });

  describe('POST /nodes/{id}/reset-token', () => {
    it('should make a new token id and token, push them with the old token, and record node.token_reset without secrets', async () => {
      const { daemon, node, token: oldToken } = await nodeWithDaemon();
      const oldSealed = await sealedTokenOf(t, node.id);
      const res = await as('post', `${NODES}/${node.id}/reset-token`).expect(200);
      expect(res.body).toEqual({ data: await storedBody(node.id), meta: PUSHED });
      const newId: string = res.body.data.tokenIdentifier;
      expect(newId).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(newId).not.toBe(node.tokenIdentifier);
      expect(res.body.data).toEqual({ ...node, tokenIdentifier: newId, updatedAt: expect.any(String) });
      expect(res.text).not.toMatch(/[A-Za-z0-9]{64}/);

      const config = await configOf(node.id);
      expect(config.token_id).toBe(newId);
      expect(config.token).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(config.token).not.toBe(oldToken);
      // The daemon is told with the credentials it still holds, and learns the new ones from the body.
      expect(daemon.calls).toEqual([pushCall(`Bearer ${oldToken}`, config)]);
      expect(daemon.calls[0].body).toMatchObject({ token: config.token, token_id: newId });

      const sealed = await sealedTokenOf(t, node.id);
      expect(sealed).not.toBe(oldSealed);
      expect(sealed).toMatch(/^v1:/);
      expect(sealed).not.toContain(config.token);

      const audit = await auditOf(node.id);
      expect(audit[0]).toEqual(auditEntry('node.token_reset', node.id, { before: { tokenIdentifier: node.tokenIdentifier }, after: { tokenIdentifier: newId } }));
      expect(JSON.stringify(audit)).not.toContain(config.token);
      expect(JSON.stringify(audit)).not.toContain(oldToken);

      // Later calls use the new token.
      await as('get', `${NODES}/${node.id}/system`).expect(200);
      expect(daemon.calls[1]).toMatchObject({ method: 'GET', path: '/api/system', authorization: `Bearer ${config.token}` });
    });

    it('should push with the old <tokenIdentifier>.<token> when the node uses daemonAuth combined', async () => {
      const { daemon, node, token } = await nodeWithDaemon({ daemonAuth: 'combined' });
      await as('post', `${NODES}/${node.id}/reset-token`).expect(200);
      expect(daemon.calls).toEqual([pushCall(`Bearer ${node.tokenIdentifier}.${token}`, await configOf(node.id))]);
    });

    it('should still reset the token and answer configurationPushed false with pushError when the daemon is down', async () => {
      const { daemon, node, token } = await nodeWithDaemon();
      daemon.goDown();
      const res = await as('post', `${NODES}/${node.id}/reset-token`).expect(200);
      expect(res.body).toEqual({
        data: await storedBody(node.id),
        meta: { configurationPushed: false, pushError: expect.stringMatching(/^daemon unavailable/) },
      });
      const config = await configOf(node.id);
      expect([config.token_id === node.tokenIdentifier, config.token === token]).toEqual([false, false]);
      expect((await auditOf(node.id))[0].action).toBe('node.token_reset');
    });
  });

  describe('GET /nodes/{id}/system', () => {
    it("should answer {data: <the daemon's system information>} after calling GET /api/system with Bearer <token>", async () => {
      const { daemon, node, token } = await nodeWithDaemon();
      const res = await as('get', `${NODES}/${node.id}/system`).expect(200);
      expect(res.body).toEqual({ data: SYSTEM_INFO });
      expect(daemon.calls).toEqual([{ method: 'GET', path: '/api/system', authorization: `Bearer ${token}`, contentType: 'application/json', body: undefined }]);
      const key = await createApiKey(t, cookie, { permissions: ['nodes.read'] });
      expect((await t.http().get(`${NODES}/${node.id}/system`).set('x-api-key', key).expect(200)).body).toEqual({ data: SYSTEM_INFO });
    });

    it('should send Bearer <tokenIdentifier>.<token> to a daemonAuth combined node', async () => {
      const { daemon, node, token } = await nodeWithDaemon({ daemonAuth: 'combined' });
      await as('get', `${NODES}/${node.id}/system`).expect(200);
      expect(daemon.calls.map((c) => c.authorization)).toEqual([`Bearer ${node.tokenIdentifier}.${token}`]);
    });

    it("should answer the daemon's own status and message with details.nodeId when the daemon answers an HTTP error", async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => ({ status: 500, body: { error: 'boom', request_id: 'r1' } });
      const res = await as('get', `${NODES}/${node.id}/system`);
      expect([res.status, res.body]).toEqual([
        500,
        { statusCode: 500, code: 'DAEMON_HTTP_ERROR', message: 'boom', details: { nodeId: node.id, status: 500, daemonRequestId: 'r1' }, requestId: expect.any(String) },
      ]);
      daemon.reply = () => ({ status: 404, body: { error: 'The requested resource does not exist on this instance.' } });
      const missing = await as('get', `${NODES}/${node.id}/system`);
      expect([missing.status, missing.body]).toEqual([
        404,
        {
          statusCode: 404,
          code: 'DAEMON_HTTP_ERROR',
          message: 'The requested resource does not exist on this instance.',
          details: { nodeId: node.id, status: 404 },
          requestId: expect.any(String),
        },
      ]);
    });

    it('should answer a generic message naming the status when the daemon error body is not JSON', async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => ({ status: 502, raw: '<html>Bad Gateway</html>' });
      const res = await as('get', `${NODES}/${node.id}/system`);
      expect([res.status, res.body]).toEqual([
        502,
        { statusCode: 502, code: 'DAEMON_HTTP_ERROR', message: 'The daemon answered HTTP 502', details: { nodeId: node.id, status: 502 }, requestId: expect.any(String) },
      ]);
    });

    it.each([401, 403])('should answer 403 DAEMON_AUTH_FAILED when the daemon answers %s', async (status) => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => ({ status, body: { error: 'You are not authorized to access this endpoint.' } });
      const res = await as('get', `${NODES}/${node.id}/system`);
      expect([res.status, res.body]).toEqual([
        403,
        {
          statusCode: 403,
          code: 'DAEMON_AUTH_FAILED',
          message: expect.stringMatching(/^daemon authentication failed/),
          details: { nodeId: node.id, status },
          requestId: expect.any(String),
        },
      ]);
      expect(res.body.message).toBe('daemon authentication failed: You are not authorized to access this endpoint.');
    });

    it('should answer 503 DAEMON_UNAVAILABLE when nothing listens at the node address', async () => {
      const port = await closedPort();
      const node = (await as('post', NODES).send(localNodeBody(port)).expect(201)).body.data;
      const res = await as('get', `${NODES}/${node.id}/system`);
      expect([res.status, res.body]).toEqual([
        503,
        { statusCode: 503, code: 'DAEMON_UNAVAILABLE', message: expect.stringMatching(/^daemon unavailable/), details: { nodeId: node.id }, requestId: expect.any(String) },
      ]);
    });

    it('should answer 502 DAEMON_BAD_RESPONSE when the daemon answers 200 with a body that is not JSON', async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => ({ status: 200, raw: '<html>proxy page</html>' });
      const res = await as('get', `${NODES}/${node.id}/system`);
      expect([res.status, res.body]).toEqual([
        502,
        {
          statusCode: 502,
          code: 'DAEMON_BAD_RESPONSE',
          message: 'The daemon sent a response that could not be read',
          details: { nodeId: node.id, status: 200 },
          requestId: expect.any(String),
        },
      ]);
    });

    it('should answer 503 DAEMON_TIMEOUT after the 10 s client timeout when the daemon accepts but never answers', async () => {
      const { daemon, node } = await nodeWithDaemon();
      daemon.reply = () => 'hang';
      const started = Date.now();
      const res = await as('get', `${NODES}/${node.id}/system`);
      const elapsed = Date.now() - started;
      expect([res.status, res.body]).toEqual([
        503,
        { statusCode: 503, code: 'DAEMON_TIMEOUT', message: 'daemon unavailable: the request timed out', details: { nodeId: node.id }, requestId: expect.any(String) },
      ]);
      expect(elapsed).toBeGreaterThanOrEqual(9_500);
      expect(elapsed).toBeLessThan(20_000);
      expect(daemon.calls).toHaveLength(1);
    }, 40_000);
  });
});
