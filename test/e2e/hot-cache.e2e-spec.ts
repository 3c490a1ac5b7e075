import { DataSource } from 'typeorm';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser, UserFactoryOptions } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { FakeDaemon } from 'test/utils/nodes';
import { countTypeormQueries } from 'test/utils/query-counter';
import { dbKinds } from 'test/utils/test-db';

type Credential = { cookie: string } | { key: string };

/**
 * Credentials, servers, allocations and subuser grants are served from in-process
 * caches, and whatever changes them is seen by the very next request of the same process. Each
 * test first shows the path is served from the cache (no query), then changes something through
 * the API and asks again.
 */
describe.each(dbKinds(['postgres', 'pglite']))('hot caches in one process (%s)', (db) => {
  let t: TestApp;
  let daemon: FakeDaemon;
  let admin: { user: UserEntity; cookie: string };
  let node: NodeEntity;
  let egg: EggEntity;

  const req = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, credential: Credential) => {
    const r = t.http()[method](path).set('Origin', TEST_ORIGIN);
    return 'cookie' in credential ? r.set('Cookie', credential.cookie) : r.set('Authorization', `Bearer ${credential.key}`);
  };

  const account = async (options: UserFactoryOptions = {}) => {
    const user = await createUser(t.app, options);
    const cookie = await signIn(t, user.email, options.password);
    const key = await createApiKey(t, cookie);
    return { user, cookie, key, session: { cookie }, apiKey: { key } };
  };

  /**
   * Answers `status` twice; the second time without a query: it came from the caches. (On
   * PostgreSQL it first waits until the app has heard its own latest writes back: see ChangeFeed.caughtUp.)
   */
  const expectCached = async (path: string, credential: Credential, status = 200) => {
    await t.app.get(ChangeFeed).caughtUp();
    await req('get', path, credential).expect(status);
    const { result, queries } = await countTypeormQueries(async () => req('get', path, credential));
    expect({ status: result.status, queries }).toEqual({ status, queries: [] });
    return result.body;
  };

  const serverOf = async (owner: UserEntity): Promise<ServerEntity> =>
    createServerRow(t.app, { node, egg, owner, allocation: await createAllocationRow(t.app, node) });

  beforeAll(async () => {
    t = await createTestApp({ db });
    daemon = await FakeDaemon.start();
    const adminUser = await createUser(t.app, { admin: true });
    admin = { user: adminUser, cookie: await signIn(t, adminUser.email) };
    node = (await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: daemon.port })).node;
    egg = await createEgg(t.app, (await createNest(t.app)).id);
  });

  afterAll(async () => {
    await daemon?.stop();
    await t?.close();
  });

  describe('credentials', () => {
    it('should refuse a revoked API key on the very next request', async () => {
      const a = await account();
      await expectCached('/api/account', a.apiKey);
      const [listed] = (await req('get', '/api/account/api-keys', a.session).expect(200)).body.data;
      await req('delete', `/api/account/api-keys/${listed.identifier}`, a.session).expect(204);
      expect((await req('get', '/api/account', a.apiKey)).body.code).toBe('UNAUTHENTICATED');
    });

    it('should refuse a session once signed out, and one deleted from another session', async () => {
      const a = await account();
      await expectCached('/api/account', a.session);
      await req('post', '/api/auth/sign-out', a.session).expect(204);
      await req('get', '/api/account', a.session).expect(401);

      const other = { cookie: await signIn(t, a.user.email) };
      const third = { cookie: await signIn(t, a.user.email) };
      await expectCached('/api/account', other);
      const sessions = (await req('get', '/api/account/sessions', third).expect(200)).body.data as { id: string; current: boolean }[];
      const otherId = (await req('get', '/api/auth/session', other).expect(200)).body.data.session.id;
      expect(sessions.map((s) => s.id)).toContain(otherId);
      await req('delete', `/api/account/sessions/${otherId}`, third).expect(204);
      await req('get', '/api/account', other).expect(401);
      await req('get', '/api/account', third).expect(200);
    });

    it('should end the other sessions at once when the password changes, and keep the current one', async () => {
      const a = await account();
      const other = { cookie: await signIn(t, a.user.email) };
      await expectCached('/api/account', other);
      await expectCached('/api/account', a.session);
      await req('put', '/api/account/password', a.session).send({ currentPassword: 'correct horse battery staple', newPassword: 'a brand new passphrase' }).expect(204);
      await req('get', '/api/account', other).expect(401);
      await req('get', '/api/account', a.session).expect(200);
    });

    it("should take a demoted admin's admin scopes away at once, from its key and its session", async () => {
      const a = await account({ admin: true });
      for (const credential of [a.apiKey, a.session]) {
        await expectCached('/api/account', credential);
        await req('get', '/api/admin/users', credential).expect(200);
      }
      await req('patch', `/api/admin/users/${a.user.id}`, admin).send({ admin: false }).expect(200);
      expect((await req('get', '/api/admin/users', a.apiKey).expect(403)).body.code).toBe('ADMIN_REQUIRED');
      expect((await req('get', '/api/admin/users', a.session).expect(403)).body.code).toBe('ADMIN_REQUIRED');
      expect((await req('get', '/api/account', a.apiKey).expect(200)).body.data.admin).toBe(false);
    });

    it("should refuse a deleted user's key and session on the very next request", async () => {
      const a = await account();
      await expectCached('/api/account', a.apiKey);
      await expectCached('/api/account', a.session);
      await req('delete', `/api/admin/users/${a.user.id}`, admin).expect(204);
      await req('get', '/api/account', a.apiKey).expect(401);
      await req('get', '/api/account', a.session).expect(401);
    });
  });

  describe('servers', () => {
    it('should show a rename, a suspension and a new owner on the very next request', async () => {
      const owner = await account();
      const server = await serverOf(owner.user);
      const path = `/api/client/servers/${server.uuid}`;
      expect((await expectCached(path, owner.apiKey)).data.name).toBe(server.name);
      await expectCached(`/api/client/servers/${server.identifier}`, owner.session);

      await req('post', `${path}/settings/rename`, owner.session).send({ name: 'Renamed' }).expect(204);
      expect((await req('get', path, owner.apiKey).expect(200)).body.data.name).toBe('Renamed');
      expect((await req('get', `/api/client/servers/${server.identifier}`, owner.session).expect(200)).body.data.name).toBe('Renamed');

      await expectCached(path, owner.apiKey);
      await req('post', `/api/admin/servers/${server.id}/suspend`, admin).expect(200);
      expect((await req('get', path, owner.apiKey).expect(200)).body.data).toMatchObject({ suspended: true, status: 'suspended' });
      expect((await req('post', `${path}/command`, owner.apiKey).send({ command: 'say hi' }).expect(409)).body.code).toBe('SERVER_SUSPENDED');

      const heir = await account();
      await expectCached(path, heir.apiKey, 404);
      await req('patch', `/api/admin/servers/${server.id}`, admin).send({ owner_id: heir.user.id }).expect(200);
      expect((await req('get', path, heir.apiKey).expect(200)).body.data.owner).toEqual({ id: String(heir.user.id), username: heir.user.username });
      await req('get', path, owner.apiKey).expect(404);
    });

    it("should show a server's allocations as they change", async () => {
      const owner = await account();
      const server = await serverOf(owner.user);
      const path = `/api/client/servers/${server.uuid}/network/allocations`;
      expect((await expectCached(path, owner.apiKey)).data).toHaveLength(1);
      const extra = await createAllocationRow(t.app, node);
      await req('patch', `/api/admin/servers/${server.id}/build`, admin).send({ add_allocations: [extra.id] }).expect(200);
      expect((await req('get', path, owner.apiKey).expect(200)).body.data.map((a: { id: string }) => a.id)).toEqual(
        expect.arrayContaining([String(extra.id), String(server.allocationId)]),
      );
      await expectCached(path, owner.apiKey);
      await req('patch', `/api/admin/servers/${server.id}/build`, admin).send({ remove_allocations: [extra.id] }).expect(200);
      expect((await req('get', path, owner.apiKey).expect(200)).body.data).toHaveLength(1);
    });

    it("should apply a subuser's new permissions, its removal and a new invitation on the very next request", async () => {
      const owner = await account();
      const server = await serverOf(owner.user);
      const base = `/api/client/servers/${server.uuid}`;
      const friend = await account();
      // No grant yet: a cached 404.
      await expectCached(base, friend.apiKey, 404);
      await req('post', `${base}/users`, owner.session).send({ email: friend.user.email, permissions: ['server.allocation.read'] }).expect(201);
      expect((await expectCached(base, friend.apiKey)).data.permissions).toEqual(['server.view', 'server.allocation.read']);
      await expectCached(`${base}/network/allocations`, friend.apiKey);

      await req('post', `${base}/users/${friend.user.id}`, owner.session).send({ permissions: [] }).expect(200);
      expect((await req('get', `${base}/network/allocations`, friend.apiKey).expect(403)).body.code).toBe('SERVER_PERMISSION_DENIED');
      expect((await expectCached(base, friend.apiKey)).data.permissions).toEqual(['server.view']);

      await req('delete', `${base}/users/${friend.user.id}`, owner.session).expect(204);
      expect((await req('get', base, friend.apiKey).expect(404)).body.code).toBe('SERVER_NOT_FOUND');
    });

    it("should call the daemon with the node's new token right after a token reset", async () => {
      const owner = await account();
      const server = await serverOf(owner.user);
      const path = `/api/client/servers/${server.uuid}`;
      const statusCall = () => daemon.calls.filter((c) => c.path === `/api/servers/${server.uuid}`).at(-1);
      await expectCached(path, owner.apiKey);
      const before = statusCall()?.authorization;
      await req('post', `/api/admin/nodes/${node.id}/reset-token`, admin).expect(200);
      await req('get', path, owner.apiKey).expect(200);
      const reset = await t.app.get(DataSource).getRepository(NodeEntity).findOneByOrFail({ id: node.id });
      expect(statusCall()?.authorization).toBe(`Bearer ${t.app.get(DaemonGateway).tokenOf(reset)}`);
      expect(statusCall()?.authorization).not.toBe(before);
    });
  });
});

describe.each(dbKinds(['postgres']))('hot caches turned off (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, env: { HOT_CACHE_TTL_SECONDS: '0' } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should read the database on every request with HOT_CACHE_TTL_SECONDS=0', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const key = await createApiKey(t, cookie);
    for (const credential of [{ Cookie: cookie }, { Authorization: `Bearer ${key}` }]) {
      await t.http().get('/api/account').set(credential).expect(200);
      const { queries } = await countTypeormQueries(async () => t.http().get('/api/account').set(credential).expect(200));
      expect(queries).toHaveLength(1);
    }
  });
});
