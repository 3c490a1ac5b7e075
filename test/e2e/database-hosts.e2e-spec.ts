import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { hostPasswordContext } from 'src/modules/databases/database-host.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { MariaDb, mariadbAvailable, reserveServerIds, testHostBody } from 'test/utils/mariadb';
import { ADMIN_REQUIRED, closedPort, DECIMAL_ID, expectError, expectValidation, ISO, Json, LOOPBACK, Method, missingScope, UNAUTHENTICATED } from 'test/utils/nodes';
import { dbKinds } from 'test/utils/test-db';

const HOSTS = '/api/admin/database-hosts';
const AUDIT = '/api/admin/audit-logs';
const SEALED = /^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/;
const HOST_NOT_FOUND = ['DATABASE_HOST_NOT_FOUND', 'Database host not found'] as const;

(mariadbAvailable() ? describe.each(dbKinds(['postgres'])) : describe.skip.each(['postgres' as const]))('admin database hosts on a real MariaDB (%s)', (db) => {
  const logs = new LogCapture();
  let t: TestApp;
  let mariadb: MariaDb;
  let firstServerId: number;
  let admin: UserEntity;
  let cookie: string;
  /** A MariaDB account with a password, to show it is sealed, never shown and never logged. */
  let hostAdmin: { user: string; password: string };

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const ds = () => t.app.get(DataSource);
  const countRows = async (table: 'database_host' | 'audit_log'): Promise<number> =>
    (await ds().query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const state = async () => ({ hosts: await countRows('database_host'), audit: await countRows('audit_log') });
  const sealedOf = async (id: string): Promise<string> =>
    (await ds().query<{ password: string }[]>('SELECT password FROM database_host WHERE id = $1', [id]))[0].password;
  const auditOf = async (id: string): Promise<Json[]> =>
    (await as('get', `${AUDIT}?targetType=database_host&targetId=${id}`).expect(200)).body.data;
  const auditEntry = (action: string, id: string, changes: Json): Json => ({
    id: expect.stringMatching(DECIMAL_ID),
    actor: { id: admin.id, username: admin.username, via: 'session' },
    action,
    target: { type: 'database_host', id, name: expect.any(String), parentId: null },
    changes,
    ip: expect.stringMatching(LOOPBACK),
    createdAt: expect.stringMatching(ISO),
  });
  const createHost = async (overrides: Json = {}): Promise<Json> => (await as('post', HOSTS).send(testHostBody(overrides)).expect(201)).body.data;

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs });
    mariadb = await MariaDb.connect();
    firstServerId = await reserveServerIds(t, mariadb);
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    // Named in this file's reserved block (u{first-1}_...), so the cleanup below finds it.
    hostAdmin = { user: `u${firstServerId - 1}_hostadmin`, password: `Pw-${randomBytes(12).toString('base64url')}` };
    await mariadb.query('CREATE USER ?@? IDENTIFIED BY ?', [hostAdmin.user, '%', hostAdmin.password]);
    await mariadb.query('GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [hostAdmin.user, '%']);
  });

  afterAll(async () => {
    await mariadb?.dropLeftoversOf(Array.from({ length: 1_000 }, (_v, i) => String(firstServerId - 1 + i)));
    await mariadb?.close();
    await t?.close();
  });

  it('should answer 201 with the host and no password, store the password sealed to its row, and audit it without the password', async () => {
    const before = await state();
    const body = testHostBody({ username: hostAdmin.user, password: hostAdmin.password, maxDatabases: 10, maxUserConnections: 5 });
    const res = await as('post', HOSTS).send(body).expect(201);
    const { host, port } = testMySqlAccount();
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(DECIMAL_ID),
        name: body.name,
        host,
        port,
        username: hostAdmin.user,
        maxDatabases: 10,
        maxUserConnections: 5,
        nodeId: null,
        databases: 0,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const id: string = res.body.data.id;
    const sealed = await sealedOf(id);
    expect(sealed).toMatch(SEALED);
    expect(sealed).not.toContain(hostAdmin.password);
    expect(t.app.get(SecretBox).open(sealed, hostPasswordContext({ id }))).toBe(hostAdmin.password);
    // Bound to its row: the same ciphertext does not open as another host's.
    expect(() => t.app.get(SecretBox).open(sealed, hostPasswordContext({ id: `${id}0` }))).toThrow();
    expect(await state()).toEqual({ hosts: before.hosts + 1, audit: before.audit + 1 });
    expect(await auditOf(id)).toEqual([
      auditEntry('database_host.created', id, {
        after: { name: body.name, host, port, username: hostAdmin.user, maxDatabases: 10, maxUserConnections: 5, nodeId: null },
      }),
    ]);
    expect(JSON.stringify(await auditOf(id))).not.toContain(hostAdmin.password);
  });

  it('should read one host and list them paginated, with their database counts and never a password', async () => {
    const a = await createHost({ username: hostAdmin.user, password: hostAdmin.password });
    const b = await createHost();
    expect((await as('get', `${HOSTS}/${a.id}`).expect(200)).body).toEqual({ data: a });
    const total = await countRows('database_host');
    const all = await as('get', `${HOSTS}?perPage=100`).expect(200);
    expect(all.body.meta).toEqual({ pagination: { total, count: total, perPage: 100, currentPage: 1, totalPages: 1 } });
    expect(all.body.data.slice(-2)).toEqual([a, b]);
    expect(JSON.stringify(all.body)).not.toContain(hostAdmin.password);
    expect((all.body.data as Json[]).every((h) => !('password' in h))).toBe(true);
  });

  it('should report the server version when the host answers', async () => {
    const host = await createHost({ username: hostAdmin.user, password: hostAdmin.password });
    const version: string = (await mariadb.query('SELECT VERSION() AS v'))[0].v;
    const res = await as('post', `${HOSTS}/${host.id}/test`).expect(200);
    expect(res.body).toEqual({ data: { connected: true, version } });
  });

  it('should report the error, without the password, when the host is down or refuses the account', async () => {
    const port = await closedPort();
    const down = await createHost({ host: '127.0.0.1', port });
    const refused = await as('post', `${HOSTS}/${down.id}/test`).expect(200);
    expect(refused.body).toEqual({
      data: { connected: false, error: { code: 'DATABASE_HOST_UNAVAILABLE', message: expect.stringMatching(/^database host unavailable: .*ECONNREFUSED/) } },
    });
    const wrong = await createHost({ username: hostAdmin.user, password: `${hostAdmin.password}-wrong` });
    const denied = await as('post', `${HOSTS}/${wrong.id}/test`).expect(200);
    expect(denied.body).toEqual({
      data: {
        connected: false,
        error: { code: 'DATABASE_HOST_UNAVAILABLE', message: expect.stringMatching(new RegExp(`^database host unavailable: Access denied for user '${hostAdmin.user}'`)) },
      },
    });
    expect(JSON.stringify(denied.body)).not.toContain(hostAdmin.password);
  });

  it('should re-seal a new password on patch, audit only that it changed, and use it from then on', async () => {
    const host = await createHost({ username: hostAdmin.user, password: 'not-the-password' });
    expect((await as('post', `${HOSTS}/${host.id}/test`).expect(200)).body.data.connected).toBe(false);
    const res = await as('patch', `${HOSTS}/${host.id}`).send({ password: hostAdmin.password, maxDatabases: 3 }).expect(200);
    expect(res.body.data).toEqual({ ...host, maxDatabases: 3, updatedAt: expect.stringMatching(ISO) });
    expect(t.app.get(SecretBox).open(await sealedOf(host.id), hostPasswordContext(host as { id: string }))).toBe(hostAdmin.password);
    expect((await as('post', `${HOSTS}/${host.id}/test`).expect(200)).body.data.connected).toBe(true);
    const [updated] = await auditOf(host.id);
    expect(updated).toEqual(auditEntry('database_host.updated', host.id, { before: { maxDatabases: null }, after: { maxDatabases: 3, password: '(changed)' } }));
    expect(JSON.stringify(updated)).not.toContain(hostAdmin.password);
  });

  it('should link a host to a node, refuse an unknown node with 404, and unlink it with null', async () => {
    const { node } = await createNodeRow(t.app);
    const linked = await createHost({ nodeId: node.id });
    expect(linked.nodeId).toBe(String(node.id));
    const before = await state();
    expectError(await as('post', HOSTS).send(testHostBody({ nodeId: '999999999' })), 404, 'NODE_NOT_FOUND', 'Node not found');
    expectError(await as('patch', `${HOSTS}/${linked.id}`).send({ nodeId: '999999999' }), 404, 'NODE_NOT_FOUND', 'Node not found');
    expect(await state()).toEqual(before);
    expect((await as('patch', `${HOSTS}/${linked.id}`).send({ nodeId: null }).expect(200)).body.data.nodeId).toBeNull();
  });

  it('should answer 409 DATABASE_HOST_NAME_TAKEN on a taken name, on create and on patch', async () => {
    const a = await createHost();
    const b = await createHost();
    const before = await state();
    expectError(await as('post', HOSTS).send(testHostBody({ name: a.name })), 409, 'DATABASE_HOST_NAME_TAKEN', 'A database host with this name exists');
    expectError(await as('patch', `${HOSTS}/${b.id}`).send({ name: a.name }), 409, 'DATABASE_HOST_NAME_TAKEN', 'A database host with this name exists');
    expect(await state()).toEqual(before);
  });

  it.each([
    ['no password', { password: undefined }, [{ field: 'password', message: 'password must be a string' }]],
    ['no port', { port: undefined }, [{ field: 'port', message: 'port must be an integer number' }]],
    ['port 0', { port: 0 }, [{ field: 'port', message: 'port must not be less than 1' }]],
    ['port 65536', { port: 65536 }, [{ field: 'port', message: 'port must not be greater than 65535' }]],
    ['a host with a space', { host: 'db host' }, [{ field: 'host', message: 'host must be a host name or an IP address' }]],
    ['a host like 1.2.3', { host: '1.2.3' }, [{ field: 'host', message: 'host must be a host name or an IP address' }]],
    ['an empty username', { username: '' }, [{ field: 'username', message: 'username must be 1 to 80 letters, digits or symbols' }]],
    ['a negative maxDatabases', { maxDatabases: -1 }, [{ field: 'maxDatabases', message: 'maxDatabases must not be less than 0' }]],
    ['maxUserConnections 0', { maxUserConnections: 0 }, [{ field: 'maxUserConnections', message: 'maxUserConnections must not be less than 1' }]],
    ['a bad nodeId', { nodeId: 'abc' }, [{ field: 'nodeId', message: 'nodeId must be a node id' }]],
    ['an unknown field', { ssl: true }, [{ field: 'ssl', message: 'property ssl should not exist' }]],
  ])('should answer 400 VALIDATION_FAILED and add nothing when the body has %s', async (_label, overrides, details) => {
    const body = Object.fromEntries(Object.entries(testHostBody(overrides)).filter(([, v]) => v !== undefined));
    const before = await state();
    expectValidation(await as('post', HOSTS).send(body), details);
    expect(await state()).toEqual(before);
  });

  it('should answer 409 DATABASE_HOST_HAS_DATABASES while a database lives on the host, and delete it with an audit entry once empty', async () => {
    const host = await createHost();
    const nest = await createNest(t.app);
    const egg = await createEgg(t.app, nest.id);
    const { node } = await createNodeRow(t.app);
    const owner = await createUser(t.app);
    const server = await createServerRow(t.app, { node, egg, owner });
    // Only this host may take it: every other host of the file is made full.
    await ds().query('UPDATE database_host SET max_databases = 0 WHERE id <> $1', [host.id]);
    const ownerCookie = await signIn(t, owner.email);
    const created = await as('post', `/api/client/servers/${server.uuid}/databases`, ownerCookie).send({ name: 'keep', remote: '%' }).expect(201);
    expect((await as('get', `${HOSTS}/${host.id}`).expect(200)).body.data.databases).toBe(1);

    const before = await state();
    expectError(await as('delete', `${HOSTS}/${host.id}`), 409, 'DATABASE_HOST_HAS_DATABASES', 'The database host still has databases and cannot be deleted');
    expect(await state()).toEqual(before);

    await as('delete', `/api/client/servers/${server.uuid}/databases/${created.body.data.id}`, ownerCookie).expect(204);
    const res = await as('delete', `${HOSTS}/${host.id}`).expect(204);
    expect(res.text).toBe('');
    expect(await state()).toEqual({ hosts: before.hosts - 1, audit: before.audit + 1 });
    expect((await auditOf(host.id))[0]).toEqual(
      auditEntry('database_host.deleted', host.id, {
        before: { name: host.name, host: host.host, port: host.port, username: host.username, maxDatabases: null, maxUserConnections: null, nodeId: null },
      }),
    );
    expectError(await as('get', `${HOSTS}/${host.id}`), 404, ...HOST_NOT_FOUND);
  });

  it.each(['999999999', 'abc', '0'])('should answer 404 DATABASE_HOST_NOT_FOUND on get, patch, delete and test when the host is %s', async (id) => {
    for (const [method, path] of [
      ['get', `${HOSTS}/${id}`],
      ['patch', `${HOSTS}/${id}`],
      ['delete', `${HOSTS}/${id}`],
      ['post', `${HOSTS}/${id}/test`],
    ] as [Method, string][]) {
      const res = await as(method, path).send(method === 'patch' ? { maxDatabases: 1 } : undefined);
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expectError(res, 404, ...HOST_NOT_FOUND);
    }
  });

  it('should answer 403 ADMIN_REQUIRED to a non-admin, 401 without credentials, and hold API keys to database_hosts.read / database_hosts.write', async () => {
    const host = await createHost();
    const userCookie = await signIn(t, (await createUser(t.app)).email);
    const readKey = await createApiKey(t, cookie, { permissions: ['database_hosts.read'] });
    // The servers scopes reached database hosts until they had scopes of their own.
    const nodesKey = await createApiKey(t, cookie, { permissions: ['servers.read', 'servers.write'] });
    const before = await state();
    const routes: [Method, string, 'read' | 'write'][] = [
      ['get', HOSTS, 'read'],
      ['get', `${HOSTS}/${host.id}`, 'read'],
      ['post', HOSTS, 'write'],
      ['patch', `${HOSTS}/${host.id}`, 'write'],
      ['delete', `${HOSTS}/${host.id}`, 'write'],
      ['post', `${HOSTS}/${host.id}/test`, 'write'],
    ];
    for (const [method, path, kind] of routes) {
      const body = method === 'patch' || (method === 'post' && path === HOSTS) ? testHostBody() : undefined;
      const denied = await as(method, path, userCookie).send(body);
      expect([method, path, denied.status, denied.body]).toEqual([method, path, 403, ADMIN_REQUIRED]);
      const anonymous = await t.http()[method](path).send(body);
      expect([method, path, anonymous.status, anonymous.body]).toEqual([method, path, 401, UNAUTHENTICATED]);
      const wrongScope = await t.http()[method](path).set('x-api-key', nodesKey).send(body);
      expect([method, path, wrongScope.status, wrongScope.body]).toEqual([method, path, 403, missingScope(`database_hosts.${kind}`)]);
      const withRead = await t.http()[method](path).set('x-api-key', readKey).send(body);
      expect([method, path, withRead.status]).toEqual([method, path, kind === 'read' ? 200 : 403]);
    }
    expect(await state()).toEqual(before);
  });

  it('should never write a host password to the log', () => {
    expect(logs.text).toContain(HOSTS);
    expect(logs.text).not.toContain(hostAdmin.password);
  });
});
