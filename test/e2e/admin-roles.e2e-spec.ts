import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { ADMIN_AREAS, type AdminAccess, type AdminArea, AdminScope, READ_ONLY_AREAS, scopeOf } from 'src/common/auth/admin-scope';
import { AUTH_METADATA, type AuthenticatedOptions, NODE_SCOPED_METADATA } from 'src/common/auth/authenticated.decorator';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { listRoutes } from 'test/utils/routes';
import { dbKinds } from 'test/utils/test-db';

const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });
type Permission = { area: AdminArea; access: AdminAccess };

/** Every admin route of the app, with the scope its @Authenticated names and whether it keeps within a role's nodes. */
const ADMIN_ROUTES = listRoutes(AppModule).flatMap((route) => {
  const options = (Reflect.getMetadata(AUTH_METADATA, route.handler) ?? Reflect.getMetadata(AUTH_METADATA, route.controller)) as AuthenticatedOptions | undefined;
  if (!options || (options.admin === undefined && !options.fullAdmin && !options.anyAdmin)) {
    return [];
  }
  const nodeScoped = Reflect.getMetadata(NODE_SCOPED_METADATA, route.handler) === true || Reflect.getMetadata(NODE_SCOPED_METADATA, route.controller) === true;
  return [{ ...route, scope: options.admin, fullAdmin: options.fullAdmin === true, anyAdmin: options.anyAdmin === true, apiKeyOnly: options.apiKeyOnly === true, nodeScoped }];
});

/** One role per area and access (the audit log has only read), and two limited to one node. */
const ROLE_CASES: { name: string; permissions: Permission[]; limited: boolean }[] = [
  ...ADMIN_AREAS.flatMap((area) =>
    (READ_ONLY_AREAS.has(area) ? (['read'] as const) : (['read', 'write'] as const)).map((access) => ({ name: `${area} ${access}`, permissions: [{ area, access }], limited: false })),
  ),
  { name: 'servers write, one node', permissions: [{ area: 'servers', access: 'write' }], limited: true },
  { name: 'nodes write, one node', permissions: [{ area: 'nodes', access: 'write' }], limited: true },
];

/** The scopes permissions grant: write brings read. */
const scopesOf = (permissions: Permission[]): Set<AdminScope> =>
  new Set(permissions.flatMap(({ area, access }) => [scopeOf(area, 'read'), ...(access === 'write' ? [scopeOf(area, 'write')] : [])]));

describe.each(dbKinds(['postgres', 'pglite']))('administrator roles (%s)', (db) => {
  let t: TestApp;
  let root: { user: UserEntity; cookie: string };

  const as = (cookie: string, method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const createRole = async (body: Record<string, unknown>) => (await as(root.cookie, 'post', '/api/admin/roles').send(body).expect(201)).body.data as { id: string };
  /** A new user holding these roles, signed in. */
  const holder = async (roleIds: string[]) => {
    const user = await createUser(t.app);
    await as(root.cookie, 'patch', `/api/admin/users/${user.id}`).send({ roleIds }).expect(200);
    return { user, cookie: await signIn(t, user.email) };
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    const user = await createUser(t.app, { admin: true });
    root = { user, cookie: await signIn(t, user.email) };
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should keep roles to full administrators, check their bodies, audit every change, and give and take them', async () => {
    const role = await createRole({ name: 'Support', permissions: [{ area: 'users', access: 'read' }, { area: 'servers', access: 'write' }] });
    expect((await as(root.cookie, 'get', `/api/admin/roles/${role.id}`).expect(200)).body.data).toEqual({
      id: role.id,
      name: 'Support',
      permissions: [
        { area: 'servers', access: 'write' },
        { area: 'users', access: 'read' },
      ],
      nodeIds: [],
      allNodes: true,
      users: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Bad bodies: nothing made.
    const bad = [
      { name: '', permissions: [] },
      { name: 'x', permissions: [{ area: 'everything', access: 'write' }] },
      { name: 'x', permissions: [{ area: 'users', access: 'admin' }] },
      { name: 'x', permissions: [{ area: 'users', access: 'read' }], nodeIds: ['abc'] },
      { name: 'x', permissions: [{ area: 'users', access: 'read' }], extra: true },
    ];
    for (const body of bad) {
      expect((await as(root.cookie, 'post', '/api/admin/roles').send(body).expect(400)).body.code).toBe('VALIDATION_FAILED');
    }
    expect((await as(root.cookie, 'post', '/api/admin/roles').send({ name: 'x', permissions: [{ area: 'users', access: 'read' }, { area: 'users', access: 'write' }] }).expect(400)).body.code).toBe('ROLE_DUPLICATE_AREA');
    expect((await as(root.cookie, 'post', '/api/admin/roles').send({ name: 'x', permissions: [{ area: 'audit', access: 'write' }] }).expect(400)).body.code).toBe('ROLE_READ_ONLY_AREA');
    expect((await as(root.cookie, 'post', '/api/admin/roles').send({ name: 'x', permissions: [], nodeIds: ['999999'] }).expect(400)).body.code).toBe('ROLE_UNKNOWN_NODE');
    expect((await as(root.cookie, 'post', '/api/admin/roles').send({ name: 'support', permissions: [] }).expect(409)).body.code).toBe('ROLE_NAME_TAKEN');
    expect((await as(root.cookie, 'get', '/api/admin/roles').expect(200)).body.data.map((r: { name: string }) => r.name)).toEqual(['Support']);

    // Given and taken through the user, by full administrators only; an unknown role gives nothing.
    const { user, cookie } = await holder([role.id]);
    expect((await as(root.cookie, 'get', `/api/admin/users/${user.id}`).expect(200)).body.data.roleIds).toEqual([role.id]);
    expect((await as(root.cookie, 'patch', `/api/admin/users/${user.id}`).send({ roleIds: [role.id, '999999'] }).expect(400)).body.code).toBe('ROLE_NOT_FOUND');
    const session = (await as(cookie, 'get', '/api/auth/session').expect(200)).body.data;
    expect(session.adminAccess).toEqual({
      full: false,
      areas: [
        { area: 'users', access: 'read', nodeIds: null },
        { area: 'servers', access: 'write', nodeIds: null },
      ],
    });
    expect((await as(cookie, 'get', '/api/admin/roles').expect(403)).body).toEqual(errorBody(403, 'FULL_ADMIN_REQUIRED'));
    expect((await as(cookie, 'patch', `/api/admin/users/${user.id}`).send({ roleIds: [] }).expect(403)).body).toEqual(errorBody(403, 'ADMIN_ROLE_FORBIDDEN'));

    // Changes take effect at once, and are audited.
    await as(root.cookie, 'patch', `/api/admin/roles/${role.id}`).send({ permissions: [{ area: 'users', access: 'write' }] }).expect(200);
    await as(cookie, 'get', '/api/admin/servers').expect(403);
    const other = await createUser(t.app);
    await as(cookie, 'patch', `/api/admin/users/${other.id}`).send({ name: 'Renamed' }).expect(200);
    // But a role holder never touches administrators or role holders, nor makes one.
    expect((await as(cookie, 'patch', `/api/admin/users/${root.user.id}`).send({ name: 'Taken over' }).expect(403)).body.code).toBe('USER_PRIVILEGED');
    expect((await as(cookie, 'post', `/api/admin/users/${root.user.id}/password-link`).expect(403)).body.code).toBe('USER_PRIVILEGED');
    expect((await as(cookie, 'patch', `/api/admin/users/${other.id}`).send({ admin: true }).expect(403)).body.code).toBe('USER_PRIVILEGED');
    expect((await as(cookie, 'post', '/api/admin/users').send({ username: 'sneaky', email: 'sneaky@example.test', admin: true }).expect(403)).body.code).toBe('USER_PRIVILEGED');
    await as(cookie, 'delete', `/api/admin/users/${root.user.id}`).expect(403);

    await as(root.cookie, 'delete', `/api/admin/roles/${role.id}`).expect(204);
    expect((await as(root.cookie, 'get', `/api/admin/users/${user.id}`).expect(200)).body.data.roleIds).toEqual([]);
    expect((await as(cookie, 'get', '/api/admin/users').expect(403)).body).toEqual(errorBody(403, 'ADMIN_REQUIRED'));
    const audit = await as(root.cookie, 'get', '/api/admin/audit-logs?perPage=100').expect(200);
    const actions = (audit.body.data as { action: string; changes: { before?: Record<string, unknown>; after?: Record<string, unknown> } }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['role.created', 'role.updated', 'role.deleted', 'user.updated']));
    const given = (audit.body.data as { action: string; changes: { after?: { adminRoleIds?: string[] } } }[]).find((e) => e.action === 'user.updated' && e.changes.after?.adminRoleIds);
    expect(given?.changes.after?.adminRoleIds).toEqual([role.id]);
  });

  it("should keep a role limited to one node to that node's servers and allocations, on the admin API and the Pterodactyl application API", async () => {
    const [a, b] = [(await createNodeRow(t.app)).node, (await createNodeRow(t.app)).node];
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const owner = await createUser(t.app);
    const onA = await createServerRow(t.app, { node: a, egg, owner, allocation: await createAllocationRow(t.app, a) });
    const onB = await createServerRow(t.app, { node: b, egg, owner, allocation: await createAllocationRow(t.app, b) });
    const role = await createRole({ name: `Region ${a.id}`, permissions: [{ area: 'servers', access: 'write' }, { area: 'nodes', access: 'read' }], nodeIds: [a.id] });
    expect((await as(root.cookie, 'get', `/api/admin/roles/${role.id}`).expect(200)).body.data).toMatchObject({ nodeIds: [a.id], allNodes: false });
    const { cookie } = await holder([role.id]);

    const ids = async (path: string) => ((await as(cookie, 'get', path).expect(200)).body.data as { id: string }[]).map((x) => x.id);
    expect(await ids('/api/admin/servers')).toEqual([onA.id]);
    expect(await ids('/api/admin/servers?cursor=')).toEqual([onA.id]);
    expect(await ids(`/api/admin/servers?nodeId=${b.id}`)).toEqual([]);
    expect(await ids('/api/admin/nodes')).toEqual([a.id]);
    await as(cookie, 'get', `/api/admin/servers/${onA.id}`).expect(200);
    expect((await as(cookie, 'get', `/api/admin/servers/${onB.id}`).expect(404)).body.code).toBe('SERVER_NOT_FOUND');
    await as(cookie, 'patch', `/api/admin/servers/${onA.id}`).send({ name: 'Renamed on A' }).expect(200);
    expect((await as(cookie, 'patch', `/api/admin/servers/${onB.id}`).send({ name: 'Renamed on B' }).expect(404)).body.code).toBe('SERVER_NOT_FOUND');
    expect((await t.app.get(DataSource).query('SELECT name FROM server WHERE id = $1', [onB.id]))[0].name).not.toBe('Renamed on B');
    await as(cookie, 'get', `/api/admin/nodes/${a.id}/allocations`).expect(200);
    expect((await as(cookie, 'get', `/api/admin/nodes/${b.id}/allocations`).expect(404)).body.code).toBe('NODE_NOT_FOUND');
    expect((await as(cookie, 'get', `/api/admin/nodes/${b.id}`).expect(404)).body.code).toBe('NODE_NOT_FOUND');
    // What cannot be kept to a node (a new server, the per-node usage of all) is closed to it.
    expect((await as(cookie, 'get', '/api/admin/servers/node-usage').expect(403)).body.code).toBe('ADMIN_ROLE_NODE_LIMITED');
    expect((await as(root.cookie, 'get', `/api/admin/servers/${onB.id}`).expect(200)).body.data.name).not.toBe('Renamed on B');

    // Its application key: the same servers and nodes, and nothing its owner lacks.
    const key = await createPterodactylKey(t, cookie, 'application', { permissions: { servers: 3, nodes: 1, allocations: 1, users: 1 } });
    const app = (method: 'get' | 'patch', path: string) => t.http()[method](path).set('Authorization', `Bearer ${key.key}`).set('Accept', PTERODACTYL_ACCEPT);
    const appIds = async (path: string) => ((await app('get', path).expect(200)).body.data as { attributes: { id: number } }[]).map((x) => String(x.attributes.id));
    expect(await appIds('/api/application/servers')).toEqual([onA.id]);
    expect(await appIds('/api/application/nodes')).toEqual([a.id]);
    await app('get', `/api/application/servers/${onA.id}`).expect(200);
    await app('get', `/api/application/servers/${onB.id}`).expect(404);
    await app('patch', `/api/application/servers/${onB.id}/details`).send({ name: 'Renamed by key', user: Number(owner.id) }).expect(404);
    await app('get', `/api/application/nodes/${a.id}/allocations`).expect(200);
    await app('get', `/api/application/nodes/${b.id}/allocations`).expect(404);
    await app('get', '/api/application/servers/external/none').expect(403); // cannot be kept to a node
    await app('get', '/api/application/users').expect(403); // no users area: a key never exceeds its owner
    // An unlimited role's key reaches what it grants, and no more.
    const everywhere = await createRole({ name: `Everywhere ${a.id}`, permissions: [{ area: 'servers', access: 'read' }, { area: 'users', access: 'read' }] });
    const wide = await holder([everywhere.id]);
    const wideKey = await createPterodactylKey(t, wide.cookie, 'application', { permissions: { servers: 3, users: 3 } });
    const wideApp = (method: 'get' | 'post', path: string) => t.http()[method](path).set('Authorization', `Bearer ${wideKey.key}`).set('Accept', PTERODACTYL_ACCEPT);
    await wideApp('get', '/api/application/servers').expect(200);
    await wideApp('get', '/api/application/users').expect(200);
    await wideApp('post', '/api/application/users').send({ username: 'x', email: 'x@example.test', first_name: 'x', last_name: 'x' }).expect(403);

    // A user's servers (`?include=servers`) as far as the key's owner reaches. Users cannot be kept to a
    // node, so a holder reads them through an unlimited role; servers through one limited to a node: only
    // that node's are included, and none once no role grants servers (the key still says r_servers).
    const users = await createRole({ name: `Users ${a.id}`, permissions: [{ area: 'users', access: 'read' }] });
    const regional = await createRole({ name: `Servers of ${a.id}`, permissions: [{ area: 'servers', access: 'read' }], nodeIds: [a.id] });
    const clerk = await holder([users.id, regional.id]);
    const clerkKey = await createPterodactylKey(t, clerk.cookie, 'application', { permissions: { servers: 1, users: 1 } });
    const includedServers = async () =>
      (
        await t
          .http()
          .get(`/api/application/users/${owner.id}?include=servers`)
          .set('Authorization', `Bearer ${clerkKey.key}`)
          .set('Accept', PTERODACTYL_ACCEPT)
          .expect(200)
      ).body.attributes.relationships.servers as { object: string; data?: { attributes: { id: number } }[] };
    expect((await includedServers()).data?.map((x) => String(x.attributes.id))).toEqual([onA.id]);
    await as(root.cookie, 'patch', `/api/admin/roles/${regional.id}`).send({ permissions: [{ area: 'nodes', access: 'read' }] }).expect(200);
    expect(await includedServers()).toEqual({ object: 'null_resource', attributes: null });
  });

  it("should give a node's configuration, which holds its daemon token, only to keys of owners who may change the node", async () => {
    const [a, b] = [(await createNodeRow(t.app)).node, (await createNodeRow(t.app)).node];
    const readers = await createRole({ name: `Node readers ${a.id}`, permissions: [{ area: 'nodes', access: 'read' }] });
    const keepers = await createRole({ name: `Node keepers ${a.id}`, permissions: [{ area: 'nodes', access: 'write' }], nodeIds: [a.id] });
    const reader = await holder([readers.id]);
    const keeper = await holder([keepers.id]);
    const configuration = (key: string, nodeId: string) => t.http().get(`/api/admin/daemon/nodes/${nodeId}/configuration`).set('Authorization', `Bearer ${key}`);
    const application = (key: string, nodeId: string) => t.http().get(`/api/application/nodes/${nodeId}/configuration`).set('Authorization', `Bearer ${key}`).set('Accept', PTERODACTYL_ACCEPT);

    // Reading nodes is not enough: the token commands every server on the node.
    const readerKey = await createApiKey(t, reader.cookie, { permissions: ['nodes.read'] });
    expect((await configuration(readerKey, a.id).expect(403)).body.code).toBe('ADMIN_ROLE_FORBIDDEN');
    const readerAppKey = (await createPterodactylKey(t, reader.cookie, 'application', { permissions: { nodes: 1 } })).key;
    expect((await application(readerAppKey, a.id).expect(403)).body.errors[0].code).toBe('AccessDeniedHttpException');
    // Changing a node is: its own node only (a node-limited role), with a key that itself only reads nodes.
    const keeperKey = await createApiKey(t, keeper.cookie, { permissions: ['nodes.read'] });
    expect((await configuration(keeperKey, a.id).expect(200)).body.data.token).toEqual(expect.any(String));
    await configuration(keeperKey, b.id).expect(404);
    const keeperAppKey = (await createPterodactylKey(t, keeper.cookie, 'application', { permissions: { nodes: 1 } })).key;
    expect((await application(keeperAppKey, a.id).expect(200)).body.token).toEqual(expect.any(String));
    // A full administrator's key reads every node's.
    await configuration(await createApiKey(t, root.cookie, { permissions: ['nodes.read'] }), b.id).expect(200);
  });

  it("should make a role holder's keys carry at most the roles' scopes, and a key lacking some of them a limited one", async () => {
    const role = await createRole({ name: 'Keys', permissions: [{ area: 'users', access: 'write' }, { area: 'eggs', access: 'read' }] });
    const { cookie } = await holder([role.id]);
    const denied = await as(cookie, 'post', '/api/account/api-keys').send({ name: 'too much', permissions: ['servers.read'] }).expect(403);
    expect(denied.body.code).toBe('API_KEY_SCOPE_EXCEEDS_OWNER');
    const full = await createApiKey(t, cookie);
    const limited = await createApiKey(t, cookie, { permissions: ['users.read'] });
    const bearer = (key: string, method: 'get' | 'post', path: string) => t.http()[method](path).set('Authorization', `Bearer ${key}`);
    await bearer(full, 'get', '/api/admin/eggs').expect(200);
    await bearer(limited, 'get', '/api/admin/users').expect(200);
    expect((await bearer(limited, 'get', '/api/admin/eggs').expect(403)).body.code).toBe('MISSING_SCOPE');
    await bearer(full, 'get', '/api/account/api-keys').expect(200);
    expect((await bearer(limited, 'get', '/api/account/api-keys').expect(403)).body.code).toBe('API_KEY_LIMITED');
  });

  // The table: every admin route against every role. The logic is the guard's and the same on both databases.
  if (db === 'pglite') {
    it('should answer every admin route to every role exactly as the role grants (a table of routes × roles)', async () => {
      const node = (await createNodeRow(t.app)).node;
      const callers: { name: string; cookie: string; key: string; scopes: Set<AdminScope>; limited: boolean }[] = [];
      for (const c of ROLE_CASES) {
        const role = await createRole({ name: `Table ${c.name}`, permissions: c.permissions, ...(c.limited ? { nodeIds: [node.id] } : {}) });
        const { cookie } = await holder([role.id]);
        callers.push({ name: c.name, cookie, key: await createApiKey(t, cookie), scopes: scopesOf(c.permissions), limited: c.limited });
      }
      const nobody = await createUser(t.app);
      const nobodyCookie = await signIn(t, nobody.email);
      callers.push({ name: 'no role', cookie: nobodyCookie, key: await createApiKey(t, nobodyCookie), scopes: new Set(), limited: false });

      expect(ADMIN_ROUTES.length).toBeGreaterThan(80);
      const wrong: string[] = [];
      for (const route of ADMIN_ROUTES) {
        const path = route.path.replace(/:[A-Za-z]+/g, '987654321');
        const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
        for (const caller of callers) {
          const req = route.apiKeyOnly ? t.http()[method](path).set('Authorization', `Bearer ${caller.key}`) : as(caller.cookie, method, path);
          const res = await (method === 'get' || method === 'delete' ? req : req.send({}));
          const allowed = route.anyAdmin ? caller.scopes.size > 0 : !route.fullAdmin && route.scope !== undefined && caller.scopes.has(route.scope) && (!caller.limited || route.nodeScoped);
          const expected = allowed ? 'not 403' : caller.scopes.size === 0 ? 'ADMIN_REQUIRED' : route.fullAdmin ? 'FULL_ADMIN_REQUIRED' : caller.scopes.has(route.scope!) ? 'ADMIN_ROLE_NODE_LIMITED' : 'ADMIN_ROLE_FORBIDDEN';
          const got = res.status === 403 ? (res.body as { code: string }).code : res.status >= 500 ? `${res.status}` : 'not 403';
          if (got !== expected) {
            wrong.push(`${route.key} as "${caller.name}": expected ${expected}, got ${got} (${res.status})`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
