import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { AppConfigService } from 'src/config/app-config.service';
import { createNodeRow } from 'test/factories/node.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { closedPort } from 'test/utils/nodes';
import { countTypeormQueries } from 'test/utils/query-counter';
import { applicationKey, createPterodactylKey, pterodactylError, UNAUTHENTICATED, UNAUTHORIZED } from 'test/utils/pterodactyl';
import { dbKinds } from 'test/utils/test-db';

const NOT_ADMIN = pterodactylError(403, 'AccessDeniedHttpException', 'This account does not have permission to access the API.');
const SUSPENDED = pterodactylError(403, 'AccessDeniedHttpException', 'This account is suspended; an administrator can lift the suspension.');
const DAEMON_TOKEN_INVALID = { statusCode: 403, code: 'DAEMON_TOKEN_INVALID', message: 'You are not authorized to access this resource' };

/**
 * Pterodactyl keys (`ptlc_`/`ptla_`) and daemon tokens are served from HotCaches, like Hatchery's own
 * credentials: whatever revokes or narrows one (through the API in this process, or by SQL from
 * anywhere on PostgreSQL) is refused on the next request, and "last used" is still written.
 */
describe.each(dbKinds(['postgres', 'pglite']))('credentials served from the caches (%s)', (db) => {
  let t: TestApp;
  let admin: string;

  const get = (path: string, key: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const asAdmin = (method: 'post' | 'patch' | 'delete', path: string) => t.http()[method](path).set('Cookie', admin).set('Origin', TEST_ORIGIN);
  const caches = () => t.app.get(HotCaches);
  const lastUsed = async (identifier: string): Promise<Date | null> => {
    const [row] = await t.app.get(DataSource).query('SELECT last_used_at FROM pterodactyl_api_key WHERE identifier = $1', [identifier]);
    return row.last_used_at === null ? null : new Date(row.last_used_at);
  };

  /** Answers 200 twice, the second time with the key from the cache (no query: the route itself reads nothing). */
  const expectCached = async (key: string) => {
    await t.app.get(ChangeFeed).caughtUp();
    await get('/pterodactyl/api/client/permissions', key).expect(200);
    const { result, queries } = await countTypeormQueries(async () => get('/pterodactyl/api/client/permissions', key));
    expect({ status: result.status, queries }).toEqual({ status: 200, queries: [] });
  };

  const clientKey = async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const created = await createPterodactylKey(t, cookie, 'client');
    return { user, cookie, key: created.key, identifier: created.identifier };
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await signIn(t, (await createUser(t.app, { admin: true })).email);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should refuse a cached client key on the very next request once revoked through either API', async () => {
    const owner = await clientKey();
    await expectCached(owner.key);
    await t.http().delete(`/api/account/pterodactyl-keys/${owner.identifier}`).set('Cookie', owner.cookie).set('Origin', TEST_ORIGIN).expect(204);
    expect((await get('/pterodactyl/api/client/permissions', owner.key).expect(401)).body).toEqual(UNAUTHENTICATED);

    // Pterodactyl's own endpoint, called with a second key of the same account.
    const first = (await createPterodactylKey(t, owner.cookie, 'client')).key;
    const second = (await createPterodactylKey(t, owner.cookie, 'client')).key;
    await expectCached(first);
    await t.http().delete(`/pterodactyl/api/client/account/api-keys/${first.slice(0, 16)}`).set('Authorization', `Bearer ${second}`).expect(204);
    expect((await get('/pterodactyl/api/client/permissions', first).expect(401)).body).toEqual(UNAUTHENTICATED);
  });

  it('should refuse a cached application key on the very next request once revoked, or once its owner is demoted', async () => {
    const revoked = await applicationKey(t);
    // The key's and its owner's creation notify every process: once those are in, nothing empties the entry this request caches.
    await t.app.get(ChangeFeed).caughtUp();
    await get('/api/application/users', revoked.key).expect(200);
    expect(caches().pterodactylKeys.get(revoked.identifier)).toBeDefined();
    await t.http().delete(`/api/admin/pterodactyl-keys/${revoked.identifier}`).set('Cookie', revoked.cookie).set('Origin', TEST_ORIGIN).expect(204);
    expect((await get('/api/application/users', revoked.key).expect(401)).body).toEqual(UNAUTHENTICATED);

    const demoted = await applicationKey(t);
    await get('/api/application/users', demoted.key).expect(200);
    await asAdmin('patch', `/api/admin/users/${demoted.admin.id}`).send({ admin: false }).expect(200);
    expect((await get('/api/application/users', demoted.key).expect(403)).body).toEqual(NOT_ADMIN);
  });

  it("should refuse a cached key on the very next request once its owner is suspended or deleted", async () => {
    const owner = await clientKey();
    await expectCached(owner.key);
    await asAdmin('post', `/api/admin/users/${owner.user.id}/suspend`).expect(200);
    expect((await get('/pterodactyl/api/client/permissions', owner.key).expect(403)).body).toEqual(SUSPENDED);
    await asAdmin('post', `/api/admin/users/${owner.user.id}/unsuspend`).expect(200);
    await expectCached(owner.key);
    await asAdmin('delete', `/api/admin/users/${owner.user.id}`).expect(204);
    expect((await get('/pterodactyl/api/client/permissions', owner.key).expect(401)).body).toEqual(UNAUTHENTICATED);
  });

  it('should refuse a wrong token for a cached identifier, and still note when the key was last used, once a minute', async () => {
    const owner = await clientKey();
    const first = t.clock.now();
    await get('/pterodactyl/api/client/permissions', owner.key).expect(200);
    expect(await lastUsed(owner.identifier)).toEqual(first);
    const wrong = `${owner.key.slice(0, 47)}${owner.key.endsWith('x') ? 'y' : 'x'}`;
    expect((await get('/pterodactyl/api/client/permissions', wrong).expect(401)).body).toEqual(UNAUTHENTICATED);

    t.clock.advance(MINUTE / 2);
    await expectCached(owner.key);
    expect(await lastUsed(owner.identifier)).toEqual(first);
    t.clock.advance(MINUTE / 2);
    const later = t.clock.now();
    await get('/pterodactyl/api/client/permissions', owner.key).expect(200);
    expect(await lastUsed(owner.identifier)).toEqual(later);
    // The write was bookkeeping: the cached key stays, and follows it.
    expect(caches().pterodactylKeys.get(owner.identifier)?.lastUsedAt).toBe(later.getTime());
  });

  it("should refuse a node's old daemon token on the very next call once its token is reset or the node deleted", async () => {
    const { node, token } = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
    const remote = (authorization: string) => t.http().get('/api/remote/servers').set('Authorization', authorization);
    const old = `Bearer ${node.tokenIdentifier}.${token}`;
    await remote(old).expect(200);
    await remote(old).expect(200);
    expect(caches().daemonNodes.get(node.tokenIdentifier)).toBeDefined();
    await asAdmin('post', `/api/admin/nodes/${node.id}/reset-token`).expect(200);
    expect((await remote(old).expect(403)).body).toMatchObject(DAEMON_TOKEN_INVALID);

    const other = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
    const otherAuth = `Bearer ${other.node.tokenIdentifier}.${other.token}`;
    await remote(otherAuth).expect(200);
    await asAdmin('delete', `/api/admin/nodes/${other.node.id}`).expect(204);
    expect((await remote(otherAuth).expect(403)).body).toMatchObject(DAEMON_TOKEN_INVALID);
  });
});

// Another program (or an operator in psql) writes straight to PostgreSQL: the change feed hears it.
describe.each(dbKinds(['postgres']))('credentials changed by SQL from outside the panel (%s)', () => {
  let t: TestApp;

  const get = (path: string, key: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);
  const caches = () => t.app.get(HotCaches);
  /** SQL on a connection of its own, then waits until the panel has heard every change committed so far. */
  const fromOutside = async (sql: string, params: unknown[]) => {
    const config = t.app.get(AppConfigService).db;
    if (config.kind !== 'postgres') {
      throw new Error('SQL from outside needs PostgreSQL');
    }
    const client = new Client({ connectionString: config.url });
    await client.connect();
    try {
      await client.query(sql, params);
    } finally {
      await client.end();
    }
    await t.app.get(ChangeFeed).caughtUp();
  };
  const warm = async (path: string, key: string, identifier: string) => {
    await t.app.get(ChangeFeed).caughtUp();
    await get(path, key).expect(200);
    expect(caches().pterodactylKeys.get(identifier)).toBeDefined();
  };

  beforeAll(async () => {
    t = await createTestApp({ db: 'postgres' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should refuse a cached key deleted, narrowed or fenced by SQL on the next request', async () => {
    const deleted = await applicationKey(t);
    await warm('/api/application/users', deleted.key, deleted.identifier);
    await fromOutside('DELETE FROM pterodactyl_api_key WHERE identifier = $1', [deleted.identifier]);
    expect((await get('/api/application/users', deleted.key).expect(401)).body).toEqual(UNAUTHENTICATED);

    const narrowed = await applicationKey(t);
    await warm('/api/application/users', narrowed.key, narrowed.identifier);
    await fromOutside(`UPDATE pterodactyl_api_key SET permissions = permissions || '{"r_users": 0}' WHERE identifier = $1`, [narrowed.identifier]);
    expect((await get('/api/application/users', narrowed.key).expect(403)).body).toEqual(UNAUTHORIZED);

    const fenced = await applicationKey(t);
    await warm('/api/application/users', fenced.key, fenced.identifier);
    await fromOutside(`UPDATE pterodactyl_api_key SET allowed_ips = '{10.1.2.3}' WHERE identifier = $1`, [fenced.identifier]);
    await get('/api/application/users', fenced.key).expect(403);
  });

  it("should refuse a cached key whose owner is demoted or deleted by SQL on the next request", async () => {
    const demoted = await applicationKey(t);
    await warm('/api/application/users', demoted.key, demoted.identifier);
    await fromOutside('UPDATE "user" SET admin = false WHERE id = $1', [demoted.admin.id]);
    expect((await get('/api/application/users', demoted.key).expect(403)).body).toEqual(NOT_ADMIN);

    const deleted = await applicationKey(t);
    await warm('/api/application/users', deleted.key, deleted.identifier);
    await fromOutside('DELETE FROM "user" WHERE id = $1', [deleted.admin.id]);
    expect((await get('/api/application/users', deleted.key).expect(401)).body).toEqual(UNAUTHENTICATED);
  });

  it('should keep a cached key when only its last use is written, by this panel or another', async () => {
    const kept = await applicationKey(t);
    await warm('/api/application/users', kept.key, kept.identifier);
    await fromOutside('UPDATE pterodactyl_api_key SET last_used_at = now() WHERE identifier = $1', [kept.identifier]);
    expect(caches().pterodactylKeys.get(kept.identifier)).toBeDefined();
  });

  it("should refuse a node's daemon token replaced by SQL on the next call", async () => {
    const { node, token } = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
    const auth = `Bearer ${node.tokenIdentifier}.${token}`;
    // The first call is the node's first contact, which other panels hear of (and drop their copy).
    await t.http().get('/api/remote/servers').set('Authorization', auth).expect(200);
    await t.app.get(ChangeFeed).caughtUp();
    await t.http().get('/api/remote/servers').set('Authorization', auth).expect(200);
    expect(caches().daemonNodes.get(node.tokenIdentifier)).toBeDefined();
    await fromOutside('UPDATE node SET token_identifier = $2 WHERE id = $1', [node.id, 'replacedbysql000']);
    expect((await t.http().get('/api/remote/servers').set('Authorization', auth).expect(403)).body).toMatchObject(DAEMON_TOKEN_INVALID);
  });
});
