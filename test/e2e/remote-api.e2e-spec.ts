import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { JSON_BODY_LIMIT } from 'src/common/http/fastify';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { EggEntity } from 'src/modules/eggs/egg.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { DECIMAL_ID, Json } from 'test/utils/nodes';
import { countTypeormQueries } from 'test/utils/query-counter';
import { dbKinds } from 'test/utils/test-db';

const REMOTE = '/api/remote';

/** The body of a refused daemon callback: ours, plus Wings' `errors` array (docs/wings.md#callbacks). */
const remoteDenial = (statusCode: number, code: string, message: string, extra: Json = {}): Json => ({
  errors: [{ code, status: String(statusCode), detail: message }],
  statusCode,
  code,
  message,
  ...extra,
  requestId: expect.any(String),
});
const expectRemoteError = (res: Response, statusCode: number, code: string, message: string, extra: Json = {}): void => {
  expect([res.status, res.body]).toEqual([statusCode, remoteDenial(statusCode, code, message, extra)]);
};
const MISSING_TOKEN: [number, string, string] = [401, 'DAEMON_TOKEN_MISSING', 'Missing or invalid daemon authentication token'];
const FORBIDDEN_TOKEN: [number, string, string] = [403, 'DAEMON_TOKEN_INVALID', 'You are not authorized to access this resource'];
const NOT_FOUND: [number, string, string] = [404, 'SERVER_NOT_FOUND', 'Server not found'];

describe.each(dbKinds(['postgres']))('the remote API Wings calls (%s)', (db) => {
  let t: TestApp;
  let adminCookie: string;
  let owner: UserEntity;
  let ownerCookie: string;
  let egg: EggEntity;
  /** The node whose daemon calls in. */
  let node: NodeEntity;
  let auth: string;
  /** Another node, with servers of its own. */
  let otherNode: NodeEntity;
  let otherAuth: string;
  let servers: ServerEntity[];
  let foreign: ServerEntity;

  const remote = (method: 'get' | 'post', path: string, authorization = auth) =>
    t.http()[method](`${REMOTE}${path}`).set('Authorization', authorization).set('Accept', 'application/vnd.pterodactyl.v1+json');
  const asAdmin = (path: string) => t.http().get(path).set('Cookie', adminCookie);
  const asOwner = (path: string) => t.http().get(path).set('Cookie', ownerCookie);
  const stored = (id: string): Promise<ServerEntity | null> => t.app.get(DataSource).getRepository(ServerEntity).findOneBy({ id });
  const setStatus = (id: string, status: ServerEntity['status']) => t.app.get(DataSource).getRepository(ServerEntity).update({ id }, { status });

  beforeAll(async () => {
    t = await createTestApp({ db });
    const admin = await createUser(t.app, { admin: true });
    adminCookie = await signIn(t, admin.email);
    owner = await createUser(t.app);
    ownerCookie = await signIn(t, owner.email);
    const nest = await createNest(t.app);
    egg = await createEgg(t.app, nest.id);

    const calling = await createNodeRow(t.app);
    node = calling.node;
    auth = `Bearer ${node.tokenIdentifier}.${calling.token}`;
    const other = await createNodeRow(t.app);
    otherNode = other.node;
    otherAuth = `Bearer ${otherNode.tokenIdentifier}.${other.token}`;

    // Three servers on the calling node (ids ascending in this order), one on the other node.
    servers = [];
    for (let i = 0; i < 3; i += 1) {
      const allocation = await createAllocationRow(t.app, node);
      servers.push(await createServerRow(t.app, { node, egg, owner, allocation }));
    }
    foreign = await createServerRow(t.app, { node: otherNode, egg, owner, allocation: await createAllocationRow(t.app, otherNode) });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the daemon-token guard', () => {
    it('should refuse a call without an Authorization header with 401 and Wings-readable errors', async () => {
      const res = await t.http().get(`${REMOTE}/servers`);
      expectRemoteError(res, ...MISSING_TOKEN);
      expect(res.body.errors).toEqual([{ code: 'DAEMON_TOKEN_MISSING', status: '401', detail: 'Missing or invalid daemon authentication token' }]);
    });

    it.each([
      ['a bearer token without the identifier part', (token: string) => `Bearer ${token}`],
      ['a Basic header', (token: string) => `Basic ${Buffer.from(`${node.tokenIdentifier}:${token}`).toString('base64')}`],
      ['an empty identifier', (token: string) => `Bearer .${token}`],
      ['an empty token', () => `Bearer ${node.tokenIdentifier}.`],
      ['a bare Bearer', () => 'Bearer'],
      ['a lowercase scheme', (token: string) => `bearer ${node.tokenIdentifier}.${token}`],
    ])('should refuse %s with 401', async (_name, header) => {
      const token = auth.split('.').slice(1).join('.');
      expectRemoteError(await remote('get', '/servers', header(token)), ...MISSING_TOKEN);
    });

    it('should refuse an unknown identifier with 403', async () => {
      const token = auth.split('.').slice(1).join('.');
      expectRemoteError(await remote('get', '/servers', `Bearer unknownidentifier.${token}`), ...FORBIDDEN_TOKEN);
    });

    it('should refuse the right identifier with a wrong token, or another node’s token, with 403', async () => {
      expectRemoteError(await remote('get', '/servers', `Bearer ${node.tokenIdentifier}.${'0'.repeat(64)}`), ...FORBIDDEN_TOKEN);
      const otherToken = otherAuth.split('.').slice(1).join('.');
      expectRemoteError(await remote('get', '/servers', `Bearer ${node.tokenIdentifier}.${otherToken}`), ...FORBIDDEN_TOKEN);
    });

    it('should not be opened by a user session or an API key', async () => {
      const key = await createApiKey(t, adminCookie, { permissions: [] });
      expectRemoteError(await t.http().get(`${REMOTE}/servers`).set('Cookie', adminCookie), ...MISSING_TOKEN);
      expectRemoteError(
        await t.http().post(`${REMOTE}/servers/reset`).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN).send({}),
        ...MISSING_TOKEN,
      );
      expectRemoteError(await t.http().get(`${REMOTE}/servers`).set('Authorization', `Bearer ${key}`), ...MISSING_TOKEN);
      expectRemoteError(await t.http().get(`${REMOTE}/servers`).set('x-api-key', key), ...MISSING_TOKEN);
    });

    it('should let the node in and record that it was seen', async () => {
      await remote('get', '/servers').expect(200);
      // The guard stamps wall-clock time (not the injectable Clock), so only its presence is checked.
      const seen = await t.app.get(DataSource).getRepository(NodeEntity).findOneByOrFail({ id: node.id });
      expect(seen.lastSeenAt).toBeInstanceOf(Date);
      // Its first call is also its first contact, which later calls leave alone.
      expect(seen.daemonContactedAt).toEqual(seen.lastSeenAt);
      const other = await t.app.get(DataSource).getRepository(NodeEntity).findOneByOrFail({ id: otherNode.id });
      expect(other.lastSeenAt).toBeNull();
      expect(other.daemonContactedAt).toBeNull();
      const firstContact = new Date('2026-01-02T03:04:05.000Z');
      await t.app.get(DataSource).query('UPDATE node SET last_seen_at = NULL, daemon_contacted_at = $2 WHERE id = $1', [node.id, firstContact]);
      // Written behind the panel's back (and the embedded database has no change feed): its cached node goes by hand.
      t.app.get(HotCaches).clear();
      await remote('get', '/servers').expect(200);
      const again = await t.app.get(DataSource).getRepository(NodeEntity).findOneByOrFail({ id: node.id });
      expect(again.lastSeenAt).toBeInstanceOf(Date);
      expect(again.daemonContactedAt).toEqual(firstContact);
    });
  });

  describe('GET /servers', () => {
    it('should treat page 0 as page 1, with numeric meta, and list only the calling node’s servers', async () => {
      const first = await remote('get', '/servers?page=0&per_page=2').expect(200);
      expect(Object.keys(first.body).sort()).toEqual(['data', 'meta']);
      expect(first.body.meta).toEqual({ current_page: 1, from: 1, last_page: 2, per_page: 2, to: 2, total: 3 });
      expect(first.body.data.map((s: Json) => s.uuid)).toEqual([servers[0].uuid, servers[1].uuid]);
      for (const entry of first.body.data) {
        expect(Object.keys(entry).sort()).toEqual(['process_configuration', 'settings', 'uuid']);
        expect(entry.settings.uuid).toBe(entry.uuid);
      }

      const second = await remote('get', '/servers?page=2&per_page=2').expect(200);
      expect(second.body.meta).toEqual({ current_page: 2, from: 3, last_page: 2, per_page: 2, to: 3, total: 3 });
      expect(second.body.data.map((s: Json) => s.uuid)).toEqual([servers[2].uuid]);

      // Page 1 is the same as page 0, so Wings' page=0 then 2..last_page never repeats a server.
      expect((await remote('get', '/servers?page=1&per_page=2').expect(200)).body).toEqual(first.body);
    });

    it('should default to 50 per page, and never show another node’s server', async () => {
      const all = await remote('get', '/servers').expect(200);
      expect(all.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 50, to: 3, total: 3 });
      expect(all.body.data.map((s: Json) => s.uuid)).toEqual(servers.map((s) => s.uuid));
      expect(JSON.stringify(all.body)).not.toContain(foreign.uuid);

      const theirs = await remote('get', '/servers', otherAuth).expect(200);
      expect(theirs.body.data.map((s: Json) => s.uuid)).toEqual([foreign.uuid]);
    });

    it('should answer a page past the end with no data and numeric meta', async () => {
      const res = await remote('get', '/servers?page=5&per_page=2').expect(200);
      expect(res.body.data).toEqual([]);
      expect(Object.values(res.body.meta).every((v) => typeof v === 'number')).toBe(true);
      expect(res.body.meta).toMatchObject({ current_page: 5, last_page: 2, per_page: 2, total: 3 });
    });

    it('should clamp a per_page above 500 (Wings aborts its boot on a 4xx) and take one below 1 as the default, keeping the pages consistent', async () => {
      for (const [query, perPage] of [
        ['per_page=501', 500],
        ['per_page=100000', 500],
        ['per_page=99999999999999999999999', 500],
        ['per_page=0', 50],
        ['per_page=-5', 50],
      ] as const) {
        const res = await remote('get', `/servers?page=0&${query}`).expect(200);
        expect([query, res.body.meta]).toEqual([query, { current_page: 1, from: 1, last_page: 1, per_page: perPage, to: 3, total: 3 }]);
        expect(res.body.data.map((s: Json) => s.uuid)).toEqual(servers.map((s) => s.uuid));
      }
      const second = await remote('get', '/servers?page=2&per_page=1000').expect(200);
      expect(second.body.data).toEqual([]);
      expect(second.body.meta).toMatchObject({ current_page: 2, last_page: 1, per_page: 500, total: 3 });
    });

    it('should refuse a page or per_page that is not a non-negative integer', async () => {
      for (const query of ['page=-1', 'page=abc', 'per_page=abc', 'per_page=1.5']) {
        const res = await remote('get', `/servers?${query}`);
        expect([query, res.status, res.body.code, res.body.errors?.[0]?.status]).toEqual([query, 400, 'VALIDATION_FAILED', '400']);
      }
    });
  });

  describe('GET /servers/{uuid}', () => {
    it('should describe the server for Wings', async () => {
      const server = servers[0];
      const allocation = (await t.app.get(DataSource).query<{ port: number }[]>('SELECT port FROM allocation WHERE server_id = $1', [server.id]))[0];
      const res = await remote('get', `/servers/${server.uuid}`).expect(200);
      expect(res.body).toEqual({
        settings: {
          uuid: server.uuid,
          meta: { name: server.name, description: '' },
          suspended: false,
          environment: {
            STARTUP: server.startup,
            P_SERVER_LOCATION: '',
            P_SERVER_UUID: server.uuid,
            P_SERVER_ALLOCATION_LIMIT: 0,
          },
          invocation: server.startup,
          skip_egg_scripts: false,
          build: { memory_limit: 1024, swap: 0, io_weight: 500, cpu_limit: 100, threads: null, disk_space: 4096, oom_disabled: true },
          container: { image: server.image, oom_disabled: true, requires_rebuild: false },
          allocations: { force_outgoing_ip: false, default: { ip: '0.0.0.0', port: allocation.port }, mappings: { '0.0.0.0': [allocation.port] } },
          mounts: [],
          egg: { id: egg.id, file_denylist: [] },
        },
        process_configuration: {
          startup: { done: ['Done'], user_interaction: [], strip_ansi: false },
          stop: { type: 'command', value: 'stop' },
          configs: [],
        },
      });
    });

    it("should send the egg's force_outgoing_ip in the configuration and the boot list once an admin sets it", async () => {
      const outgoing = async (): Promise<unknown[]> => [
        (await remote('get', `/servers/${servers[1].uuid}`).expect(200)).body.settings.allocations.force_outgoing_ip,
        ...(await remote('get', '/servers').expect(200)).body.data.map((s: Json) => s.settings.allocations.force_outgoing_ip),
      ];
      expect(await outgoing()).toEqual([false, false, false, false]);
      const setEgg = (forceOutgoingIp: boolean) =>
        t.http().patch(`/api/admin/eggs/${egg.id}`).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN).send({ forceOutgoingIp }).expect(200);
      await setEgg(true);
      try {
        expect(await outgoing()).toEqual([true, true, true, true]);
      } finally {
        await setEgg(false);
      }
      expect(await outgoing()).toEqual([false, false, false, false]);
    });

    it('should keep environment and mappings objects, give every configs entry file/parser/replace, and never send a null process_configuration', async () => {
      const nest = await createNest(t.app);
      const odd = await createEgg(t.app, nest.id, {
        configStartup: '{}',
        configStop: null,
        configFiles: JSON.stringify({
          'server.properties': { parser: 'properties', find: { 'server-port': '{{server.build.default.port}}', motd: 'A {{env.STARTUP}}' } },
          // An admin may save these; Wings dereferences nil on a configs entry without parser.
          'eula.txt': { find: { eula: 'true' } },
          'null-parser.yml': { parser: null, find: { a: 'b' } },
          'no-find.ini': { parser: 'ini' },
        }),
      });
      const bare = await createServerRow(t.app, { node, egg: odd, owner });
      try {
        const res = await remote('get', `/servers/${bare.uuid}`).expect(200);
        const { settings, process_configuration: pc } = res.body;
        expect(settings.allocations.mappings).toEqual({});
        expect(Array.isArray(settings.allocations.mappings)).toBe(false);
        expect(settings.allocations.default).toEqual({ ip: '127.0.0.1', port: 0 });
        expect(settings.environment !== null && typeof settings.environment === 'object' && !Array.isArray(settings.environment)).toBe(true);
        expect(pc).not.toBeNull();
        expect(pc.startup).toEqual({ done: [], user_interaction: [], strip_ansi: false });
        expect(pc.stop).toEqual({ type: 'stop', value: '' });
        for (const entry of pc.configs) {
          expect([entry.file, typeof entry.file, typeof entry.parser, Array.isArray(entry.replace)]).toEqual([entry.file, 'string', 'string', true]);
        }
        // Entries without find, or without a string parser, are left out rather than crash Wings.
        expect(pc.configs).toEqual([
          {
            parser: 'properties',
            file: 'server.properties',
            replace: [
              { match: 'server-port', replace_with: '0' },
              { match: 'motd', replace_with: `A ${bare.startup}` },
            ],
          },
        ]);
        // The whole answer is also what GET /servers lists for it.
        const listed = (await remote('get', '/servers').expect(200)).body.data.find((s: Json) => s.uuid === bare.uuid);
        expect(listed).toEqual({ uuid: bare.uuid, ...res.body });
      } finally {
        await t.app.get(DataSource).getRepository(ServerEntity).delete({ id: bare.id });
      }
    });

    it('should answer 404 for a server of another node, an unknown uuid, or a non-uuid', async () => {
      expectRemoteError(await remote('get', `/servers/${foreign.uuid}`), ...NOT_FOUND);
      expectRemoteError(await remote('get', '/servers/6a1c7f0e-8b7d-4a51-9d7e-2f0c4b1e9a33'), ...NOT_FOUND);
      expectRemoteError(await remote('get', `/servers/${servers[0].identifier}`), ...NOT_FOUND);
      // The other node does see its own server.
      await remote('get', `/servers/${foreign.uuid}`, otherAuth).expect(200);
    });
  });

  describe('GET /servers/{uuid}/install', () => {
    it('should answer the egg’s install script', async () => {
      const res = await remote('get', `/servers/${servers[0].uuid}/install`).expect(200);
      expect(res.body).toEqual({ container_image: egg.scriptContainer, entrypoint: egg.scriptEntry, script: egg.scriptInstall });
    });

    it('should follow copyScriptFrom to the egg the script is copied from', async () => {
      const nest = await createNest(t.app);
      const source = await createEgg(t.app, nest.id, { scriptContainer: 'alpine:3.20', scriptEntry: 'bash', scriptInstall: '#!/bin/bash\necho source' });
      const copying = await createEgg(t.app, nest.id, { copyScriptFrom: source.id, scriptInstall: '#!/bin/ash\necho own' });
      const server = await createServerRow(t.app, { node, egg: copying, owner });
      try {
        const res = await remote('get', `/servers/${server.uuid}/install`).expect(200);
        expect(res.body).toEqual({ container_image: 'alpine:3.20', entrypoint: 'bash', script: '#!/bin/bash\necho source' });
      } finally {
        await t.app.get(DataSource).getRepository(ServerEntity).delete({ id: server.id });
      }
    });

    it('should answer 404 for another node’s server', async () => {
      expectRemoteError(await remote('get', `/servers/${foreign.uuid}/install`), ...NOT_FOUND);
    });
  });

  describe('POST /servers/{uuid}/install', () => {
    const report = (uuid: string, body: unknown, authorization = auth) =>
      remote('post', `/servers/${uuid}/install`, authorization).set('Content-Type', 'application/json').send(JSON.stringify(body));

    it('should clear the status and stamp installedAt on success', async () => {
      const server = servers[0];
      await t.app.get(DataSource).getRepository(ServerEntity).update({ id: server.id }, { status: 'installing', installedAt: null });
      t.clock.advance(MINUTE);
      const res = await report(server.uuid, { successful: true, reinstall: false });
      expect([res.status, res.text]).toEqual([204, '']);
      const view = (await asAdmin(`/api/admin/servers/${server.id}`).expect(200)).body.data;
      expect([view.installStatus, view.installedAt]).toEqual([null, t.clock.now().toISOString()]);
    });

    it.each([
      [{ successful: false }, 'install_failed'],
      [{ successful: false, reinstall: false }, 'install_failed'],
      [{ successful: false, reinstall: true }, 'reinstall_failed'],
      [{ successful: true, reinstall: true }, null],
    ])('should record %j as %p', async (body, installStatus) => {
      const server = servers[1];
      await setStatus(server.id, 'installing');
      t.clock.advance(MINUTE);
      await report(server.uuid, body).expect(204);
      const view = (await asAdmin(`/api/admin/servers/${server.id}`).expect(200)).body.data;
      expect([view.installStatus, view.installedAt]).toEqual([installStatus, t.clock.now().toISOString()]);
    });

    it.each([
      [{}, [{ field: 'successful', message: 'successful must be a boolean value' }]],
      [{ successful: 'yes' }, [{ field: 'successful', message: 'successful must be a boolean value' }]],
      [{ successful: true, reinstall: 1 }, [{ field: 'reinstall', message: 'reinstall must be a boolean value' }]],
      [{ successful: true, extra: 1 }, [{ field: 'extra', message: 'property extra should not exist' }]],
    ])('should refuse the body %j with 400 and leave the server alone', async (body, details) => {
      const server = servers[1];
      await setStatus(server.id, 'installing');
      const res = await report(server.uuid, body);
      expectRemoteError(res, 400, 'VALIDATION_FAILED', 'Validation failed', { details });
      expect((await stored(server.id))?.status).toBe('installing');
      await setStatus(server.id, null);
    });

    it('should answer 404 for another node’s server and leave it alone', async () => {
      await setStatus(foreign.id, 'installing');
      expectRemoteError(await report(foreign.uuid, { successful: true }), ...NOT_FOUND);
      expect((await stored(foreign.id))?.status).toBe('installing');
      await setStatus(foreign.id, null);
    });
  });

  it('should answer a malformed JSON body with 400 INVALID_JSON and the errors array Wings reads', async () => {
    const res = await remote('post', '/activity').set('Content-Type', 'application/json').send('{"data": [');
    expectRemoteError(res, 400, 'INVALID_JSON', 'The request body is not valid JSON');
  });

  describe('POST /servers/reset', () => {
    it('should clear installing and restoring_backup on the calling node only, with the literal null body Wings sends', async () => {
      const [a, b, c] = servers;
      await setStatus(a.id, 'installing');
      await setStatus(b.id, 'restoring_backup');
      await setStatus(c.id, 'install_failed');
      await setStatus(foreign.id, 'installing');

      const res = await remote('post', '/servers/reset').set('Content-Type', 'application/json').send('null');
      expect([res.status, res.text]).toEqual([204, '']);

      const after = await Promise.all([a, b, c, foreign].map(async (s) => (await stored(s.id))?.status));
      expect(after).toEqual([null, null, 'install_failed', 'installing']);
      // The restore the daemon never reported on is logged as failed (no restore was started here, so no backup is named).
      const activity = t.app.get(DataSource).getRepository(ServerActivityEntity);
      const failed = await activity.findBy({ event: 'server.backup.restore-failed' });
      expect(failed.map((f) => [String(f.serverId), f.via, f.metadata])).toEqual([[String(b.id), 'daemon', { reason: 'The daemon restarted during the restore' }]]);
      await activity.delete({ event: 'server.backup.restore-failed' });

      // An empty body is fine too.
      await setStatus(a.id, 'installing');
      await remote('post', '/servers/reset').expect(204);
      expect((await stored(a.id))?.status).toBeNull();

      await setStatus(c.id, null);
      await setStatus(foreign.id, null);
    });
  });

  describe('POST /activity', () => {
    const event = (overrides: Json): Json => ({
      user: owner.uuid,
      server: servers[0].uuid,
      event: 'server:power.start',
      metadata: {},
      ip: '203.0.113.7',
      timestamp: '2024-05-01T12:00:00.123456789Z',
      ...overrides,
    });
    const activityOf = async (server: ServerEntity): Promise<Json[]> =>
      (await asAdmin(`/api/client/servers/${server.uuid}/activity`).expect(200)).body.data;
    const countActivity = (): Promise<number> => t.app.get(DataSource).getRepository(ServerActivityEntity).count();

    it('should refuse a batch with an invalid ip as a whole, storing nothing', async () => {
      const before = await countActivity();
      const res = await remote('post', '/activity').send({
        data: [event({}), event({ event: 'sftp:login' }), event({ server: foreign.uuid }), event({ ip: 'not-an-ip' })],
      });
      expectRemoteError(res, 400, 'VALIDATION_FAILED', 'Validation failed', { details: [{ field: 'data.3.ip', message: 'ip must be an ip address' }] });
      expect(await countActivity()).toBe(before);
    });

    it.each([
      ['a missing server', { server: undefined }, 'data.0.server'],
      ['a server that is not a uuid', { server: 'abc' }, 'data.0.server'],
      ['a missing event', { event: undefined }, 'data.0.event'],
      ['a missing timestamp', { timestamp: undefined }, 'data.0.timestamp'],
      ['a timestamp that is not a time', { timestamp: 'yesterday' }, 'data.0.timestamp'],
      ['a user that is not a uuid', { user: 'someone' }, 'data.0.user'],
      ['a missing metadata', { metadata: undefined }, 'data.0.metadata'],
      ['an impossible timestamp', { timestamp: '2024-13-45Tnonsense' }, 'data.0.timestamp'],
    ])('should refuse %s with 400', async (_name, overrides, field) => {
      const res = await remote('post', '/activity').send({ data: [event(overrides)] });
      expect([res.status, res.body.code, res.body.details?.map((d: Json) => d.field)]).toEqual([400, 'VALIDATION_FAILED', [field]]);
    });

    it('should keep only the calling node’s server:* events, as server.* entries via the daemon with the actor', async () => {
      const before = await countActivity();
      const res = await remote('post', '/activity').send({
        data: [
          event({}),
          event({ event: 'sftp:login', user: null }),
          event({ server: foreign.uuid, event: 'server:console.command', metadata: { command: 'op me' } }),
          event({ server: servers[1].uuid, user: null, ip: null, metadata: null, event: 'server:console.command' }),
        ],
      });
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
      expect(await countActivity()).toBe(before + 2);

      expect(await activityOf(servers[0])).toEqual([
        {
          id: expect.stringMatching(DECIMAL_ID),
          event: 'server.power.start',
          actor: { id: owner.id, username: owner.username },
          metadata: {},
          ip: '203.0.113.7',
          via: 'daemon',
          timestamp: '2024-05-01T12:00:00.123Z',
        },
      ]);
      // The owner sees it too.
      expect((await asOwner(`/api/client/servers/${servers[0].uuid}/activity`).expect(200)).body.data).toHaveLength(1);
      expect(await activityOf(servers[1])).toEqual([
        {
          id: expect.stringMatching(DECIMAL_ID),
          event: 'server.console.command',
          actor: null,
          metadata: {},
          ip: null,
          via: 'daemon',
          timestamp: '2024-05-01T12:00:00.123Z',
        },
      ]);
      expect(await activityOf(foreign)).toEqual([]);
    });

    it('should store a batch of any size the body limit lets through (Wings resends a refused one forever), in a few statements', async () => {
      const at = (i: number) => new Date(Date.UTC(2024, 5, 1) + i * 1000).toISOString();
      const batch = (n: number) => Array.from({ length: n }, (_v, i) => event({ server: servers[2].uuid, event: 'server:console.command', metadata: { n: i }, timestamp: at(i) }));
      const small = await countTypeormQueries(() => remote('post', '/activity').send({ data: batch(2) }));
      expect(small.result.status).toBe(204);
      const body = JSON.stringify({ data: batch(5000) });
      expect(body.length).toBeLessThan(JSON_BODY_LIMIT);
      const before = await countActivity();
      const large = await countTypeormQueries(() => remote('post', '/activity').set('Content-Type', 'application/json').send(body));
      expect(large.result.status).toBe(204);
      expect(await countActivity()).toBe(before + 5000);
      // Lookups and inserts by the batch, not by the entry: 5,000 entries take at most a few more statements than 2.
      expect(large.queries.length).toBeLessThanOrEqual(small.queries.length + 5);
      const newest = (await asAdmin(`/api/client/servers/${servers[2].uuid}/activity?perPage=1`).expect(200)).body;
      expect(newest.data[0]).toMatchObject({ event: 'server.console.command', metadata: { n: 4999 }, timestamp: at(4999), via: 'daemon' });
    });

    it('should accept an empty batch', async () => {
      const res = await remote('post', '/activity').send({ data: [] });
      expect(res.status).toBe(204);
    });
  });
});
