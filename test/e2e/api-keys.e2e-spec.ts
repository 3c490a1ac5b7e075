import { createHash } from 'node:crypto';
import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { UsersRepository } from 'src/modules/users/users.repository';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { DAY } from 'test/utils/fake-clock';
import { dbKinds } from 'test/utils/test-db';

/** Test-only route that accepts nothing but an API key. */
@Controller('api/test/key-only')
class KeyOnlyController {
  @Get()
  @Authenticated({ apiKeyOnly: true })
  get(): { data: string } {
    return { data: 'ok' };
  }
}

const ALL_SCOPES = [
  ...['servers', 'users', 'nodes', 'eggs', 'webhooks', 'settings', 'locations', 'database_hosts', 'backup_hosts', 'mounts'].flatMap((area) => [`${area}.read`, `${area}.write`]),
  'audit.read',
];
const KEY_FORMAT = /^[A-Za-z0-9_-]{32}$/;

const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

const denial = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });
const UNAUTHENTICATED = denial(401, 'UNAUTHENTICATED', 'Authentication required');
const API_KEY_REQUIRED = denial(
  401,
  'API_KEY_REQUIRED',
  'This endpoint requires an API key, given by the Authorization: Bearer header or the x-api-key header',
);
const SCOPE_EXCEEDS_OWNER = denial(403, 'API_KEY_SCOPE_EXCEEDS_OWNER', 'An API key cannot carry permissions its owner does not have');
const API_KEY_LIMITED = denial(
  403,
  'API_KEY_LIMITED',
  'An API key limited by scopes cannot manage account credentials; use a session or a key with all of your rights',
);
const ADMIN_REQUIRED = denial(403, 'ADMIN_REQUIRED', 'This action requires an administrator');
const API_KEY_NOT_FOUND = denial(404, 'API_KEY_NOT_FOUND', 'API key not found');
const missingScope = (scope: string) => denial(403, 'MISSING_SCOPE', `The API key lacks the ${scope} scope this action requires`);

describe.each(dbKinds(['postgres']))('API keys (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, controllers: [KeyOnlyController] });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A new user, signed in; returns the user and the session cookie. */
  const signedInUser = async (options: { admin?: boolean } = {}) => {
    const user = await createUser(t.app, options);
    return { user, cookie: await signIn(t, user.email) };
  };

  const postKey = (cookie: string, body: Record<string, unknown>) =>
    t.http().post('/api/account/api-keys').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send(body);

  const listKeys = async (cookie: string) => (await t.http().get('/api/account/api-keys').set('Cookie', cookie).expect(200)).body.data;

  const apiKeyRow = async (identifier: string): Promise<Record<string, unknown>> => {
    const rows: Record<string, unknown>[] = await t.app.get(DataSource).query('SELECT * FROM api_key WHERE identifier = $1', [identifier]);
    expect(rows).toHaveLength(1);
    return rows[0];
  };

  describe('creating and listing', () => {
    it('should return the key once, with a 90-day default expiry, when a key is created', async () => {
      const { cookie } = await signedInUser();
      const now = t.clock.now();
      const res = await postKey(cookie, { name: 'ci deploys' }).expect(201);
      expect(res.body).toEqual({
        data: {
          identifier: expect.any(String),
          name: 'ci deploys',
          start: expect.any(String),
          permissions: [],
          expiresAt: new Date(now.getTime() + 90 * DAY).toISOString(),
          createdAt: now.toISOString(),
          key: expect.stringMatching(KEY_FORMAT),
        },
      });
      const { key, start, identifier } = res.body.data;
      expect(start).toBe(key.slice(0, 6));
      expect(key).not.toContain(identifier);
    });

    it('should accept an expiry of 1 and of 90 days when expiresInDays is at either bound', async () => {
      const { cookie } = await signedInUser();
      const now = t.clock.now();
      const one = await postKey(cookie, { name: 'one day', expiresInDays: 1 }).expect(201);
      expect(one.body.data.expiresAt).toBe(new Date(now.getTime() + DAY).toISOString());
      const ninety = await postKey(cookie, { name: 'ninety days', expiresInDays: 90 }).expect(201);
      expect(ninety.body.data.expiresAt).toBe(new Date(now.getTime() + 90 * DAY).toISOString());
    });

    it('should answer 400 VALIDATION_FAILED with details when expiresInDays is 0 or 91', async () => {
      const { cookie } = await signedInUser();
      const zero = await postKey(cookie, { name: 'bad', expiresInDays: 0 }).expect(400);
      expect(zero.body).toEqual({
        ...denial(400, 'VALIDATION_FAILED', 'Validation failed'),
        details: [{ field: 'expiresInDays', message: 'expiresInDays must not be less than 1' }],
      });
      const tooLong = await postKey(cookie, { name: 'bad', expiresInDays: 91 }).expect(400);
      expect(tooLong.body).toEqual({
        ...denial(400, 'VALIDATION_FAILED', 'Validation failed'),
        details: [{ field: 'expiresInDays', message: 'expiresInDays must not be greater than 90' }],
      });
      expect(await listKeys(cookie)).toEqual([]);
    });

    it('should list keys without the key itself when the owner lists them', async () => {
      const { cookie } = await signedInUser();
      const created = (await postKey(cookie, { name: 'listed' }).expect(201)).body.data;
      const res = await t.http().get('/api/account/api-keys').set('Cookie', cookie).expect(200);
      expect(res.body).toEqual({
        data: [
          {
            identifier: created.identifier,
            name: 'listed',
            start: created.start,
            permissions: [],
            expiresAt: created.expiresAt,
            lastUsedAt: null,
            createdAt: created.createdAt,
          },
        ],
      });
      expect(res.text).not.toContain(created.key);
    });

    it('should store only the SHA-256 of the key when a key is created', async () => {
      const { cookie } = await signedInUser();
      const { key, identifier } = (await postKey(cookie, { name: 'hashed' }).expect(201)).body.data;
      const row = await apiKeyRow(identifier);
      expect(row.key_hash).toBe(sha256Hex(key));
      expect(row.start).toBe(key.slice(0, 6));
      const leaking = Object.entries(row).filter(([, value]) => JSON.stringify(value).includes(key));
      expect(leaking.map(([column]) => column)).toEqual([]);
    });
  });

  describe('authenticating with a key', () => {
    it('should authenticate as the owner when the key is given as Authorization: Bearer', async () => {
      const { user, cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
      expect(res.body.data).toMatchObject({ id: user.id, username: user.username });
    });

    it('should authenticate as the owner when the key is given as x-api-key', async () => {
      const { user, cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t.http().get('/api/account').set('x-api-key', key).expect(200);
      expect(res.body.data).toMatchObject({ id: user.id, username: user.username });
    });

    it('should record lastUsedAt when the key is used', async () => {
      const { cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      expect((await listKeys(cookie))[0].lastUsedAt).toBeNull();
      t.clock.advance(5_000);
      const usedAt = t.clock.now();
      await t.http().get('/api/account').set('x-api-key', key).expect(200);
      expect((await listKeys(cookie))[0].lastUsedAt).toBe(usedAt.toISOString());
    });

    it('should answer 401 "Authentication required" when the key is unknown', async () => {
      const res = await t.http().get('/api/account').set('Authorization', 'Bearer not-a-real-key-not-a-real-key-00').expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    });
  });

  describe('Bearer precedence', () => {
    it("should authenticate as the Bearer key's user when x-api-key holds garbage", async () => {
      const { user, cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).set('x-api-key', 'garbage').expect(200);
      expect(res.body.data.id).toBe(user.id);
    });

    it('should answer 401 when the Bearer value is garbage even though x-api-key is valid', async () => {
      const { cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t.http().get('/api/account').set('Authorization', 'Bearer garbage').set('x-api-key', key).expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    });

    it("should authenticate as the Bearer key's user when both headers hold valid keys of different users", async () => {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const aliceKey = await createApiKey(t, alice.cookie);
      const bobKey = await createApiKey(t, bob.cookie);
      const res = await t.http().get('/api/account').set('Authorization', `Bearer ${bobKey}`).set('x-api-key', aliceKey).expect(200);
      expect(res.body.data.id).toBe(bob.user.id);
      const swapped = await t.http().get('/api/account').set('Authorization', `Bearer ${aliceKey}`).set('x-api-key', bobKey).expect(200);
      expect(swapped.body.data.id).toBe(alice.user.id);
    });
  });

  describe('expiry and revocation', () => {
    it('should answer 401 when the clock reaches the key expiry', async () => {
      const { cookie } = await signedInUser();
      const key = await createApiKey(t, cookie, { expiresInDays: 1 });
      t.clock.advance(DAY - 1);
      await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
      t.clock.advance(1); // now === expiresAt: expired
      const res = await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
      const later = await t.http().get('/api/account').set('x-api-key', key).expect(401);
      expect(later.body).toEqual(UNAUTHENTICATED);
    });

    it('should answer 401 when the key has been revoked', async () => {
      const { cookie } = await signedInUser();
      const { key, identifier } = (await postKey(cookie, { name: 'to revoke' }).expect(201)).body.data;
      await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
      const del = await t.http().delete(`/api/account/api-keys/${identifier}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
      expect(del.text).toBe('');
      const res = await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
      expect(await listKeys(cookie)).toEqual([]);
    });

    it('should answer 404 API_KEY_NOT_FOUND when the identifier is unknown', async () => {
      const { cookie } = await signedInUser();
      for (const identifier of ['nope', 'AAAAAAAAAAAAAAAA', 'an-identifier-much-longer-than-sixteen-characters']) {
        const res = await t.http().delete(`/api/account/api-keys/${identifier}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(404);
        expect(res.body).toEqual(API_KEY_NOT_FOUND);
      }
    });

    it("should answer 404 API_KEY_NOT_FOUND and keep the key when a user deletes another user's key", async () => {
      const alice = await signedInUser();
      const bob = await signedInUser();
      const { key, identifier } = (await postKey(bob.cookie, { name: "bob's" }).expect(201)).body.data;
      const res = await t
        .http()
        .delete(`/api/account/api-keys/${identifier}`)
        .set('Cookie', alice.cookie)
        .set('Origin', TEST_ORIGIN)
        .expect(404);
      expect(res.body).toEqual(API_KEY_NOT_FOUND);
      const stillWorks = await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
      expect(stillWorks.body.data.id).toBe(bob.user.id);
    });
  });

  describe('admin scopes', () => {
    it('should allow GET and refuse POST /api/admin/users with 403 MISSING_SCOPE when an admin key has only users.read', async () => {
      const { cookie } = await signedInUser({ admin: true });
      const key = await createApiKey(t, cookie, { permissions: ['users.read'] });
      const list = await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(200);
      expect(list.body.meta.pagination.total).toBeGreaterThanOrEqual(1);
      const create = await t
        .http()
        .post('/api/admin/users')
        .set('Authorization', `Bearer ${key}`)
        .send({ username: 'scoped-out', email: 'scoped-out@example.test', name: 'Scoped Out' })
        .expect(403);
      expect(create.body).toEqual(missingScope('users.write'));
    });

    it('should allow POST /api/admin/users when an admin key carries users.write', async () => {
      const { cookie } = await signedInUser({ admin: true });
      const key = await createApiKey(t, cookie, { permissions: ['users.write'] });
      const create = await t
        .http()
        .post('/api/admin/users')
        .set('Authorization', `Bearer ${key}`)
        .send({ username: 'made-by-key', email: 'made-by-key@example.test', name: 'Made By Key' })
        .expect(201);
      expect(create.body.data).toMatchObject({ username: 'made-by-key', admin: false });
      const list = await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(403);
      expect(list.body).toEqual(missingScope('users.read'));
    });

    it("should store 'users.read' when the colon spelling 'users:read' is requested", async () => {
      const { cookie } = await signedInUser({ admin: true });
      const res = await postKey(cookie, { name: 'colon', permissions: ['users:read'] }).expect(201);
      expect(res.body.data.permissions).toEqual(['users.read']);
      expect((await apiKeyRow(res.body.data.identifier)).permissions).toEqual(['users.read']);
      await t.http().get('/api/admin/users').set('x-api-key', res.body.data.key).expect(200);
    });

    it('should grant all 21 admin scopes when an admin creates a key without permissions', async () => {
      const { cookie } = await signedInUser({ admin: true });
      const res = await postKey(cookie, { name: 'everything' }).expect(201);
      expect([...res.body.data.permissions].sort()).toEqual([...ALL_SCOPES].sort());
      expect(res.body.data.permissions).toHaveLength(21);
    });

    it('should grant no scope when a non-admin creates a key without permissions', async () => {
      const { cookie } = await signedInUser();
      const res = await postKey(cookie, { name: 'nothing' }).expect(201);
      expect(res.body.data.permissions).toEqual([]);
      expect((await apiKeyRow(res.body.data.identifier)).permissions).toEqual([]);
    });

    it('should answer 403 ADMIN_REQUIRED when a non-admin key calls an admin route', async () => {
      const { cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(403);
      expect(res.body).toEqual(ADMIN_REQUIRED);
    });

    it('should answer 403 API_KEY_SCOPE_EXCEEDS_OWNER when a non-admin asks for users.read', async () => {
      const { cookie } = await signedInUser();
      const res = await postKey(cookie, { name: 'too much', permissions: ['users.read'] }).expect(403);
      expect(res.body).toEqual(SCOPE_EXCEEDS_OWNER);
      expect(await listKeys(cookie)).toEqual([]);
    });

    // A key limited by scopes cannot manage credentials at all (else it could mint keys up to its own scopes).
    it('should answer 403 API_KEY_LIMITED and mint nothing when a users.read key creates a key', async () => {
      const { cookie } = await signedInUser({ admin: true });
      const key = await createApiKey(t, cookie, { permissions: ['users.read'] });
      for (const body of [{ name: 'escalated', permissions: ['users.write'] }, { name: 'same', permissions: ['users.read'] }, { name: 'default' }]) {
        const res = await t.http().post('/api/account/api-keys').set('Authorization', `Bearer ${key}`).send(body).expect(403);
        expect(res.body).toEqual(API_KEY_LIMITED);
      }
      expect(await listKeys(cookie)).toHaveLength(1);
    });

    it("should let a key holding all of its owner's scopes mint a key, never above the owner", async () => {
      const { cookie } = await signedInUser({ admin: true });
      const key = await createApiKey(t, cookie);
      const inherited = await t.http().post('/api/account/api-keys').set('Authorization', `Bearer ${key}`).send({ name: 'default' }).expect(201);
      expect([...inherited.body.data.permissions].sort()).toEqual([...ALL_SCOPES].sort());
      const narrow = await t
        .http()
        .post('/api/account/api-keys')
        .set('Authorization', `Bearer ${key}`)
        .send({ name: 'narrow', permissions: ['users.read'] })
        .expect(201);
      expect(narrow.body.data.permissions).toEqual(['users.read']);
    });
  });

  describe('demoted owner', () => {
    it('should answer 403 when the owner of an admin key is demoted through the repository', async () => {
      const { user, cookie } = await signedInUser({ admin: true });
      const key = await createApiKey(t, cookie);
      await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(200);
      await t.app.get(UsersRepository).update(user, { admin: false });
      const res = await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(403);
      expect(res.body).toEqual(ADMIN_REQUIRED);
    });

    it("should answer 403 when another admin demotes the key's owner over PATCH /api/admin/users/{id}", async () => {
      const owner = await signedInUser({ admin: true });
      const other = await signedInUser({ admin: true });
      const key = await createApiKey(t, owner.cookie, { permissions: ['users.read', 'users.write'] });
      await t.http().get('/api/admin/users').set('x-api-key', key).expect(200);
      await t
        .http()
        .patch(`/api/admin/users/${owner.user.id}`)
        .set('Cookie', other.cookie)
        .set('Origin', TEST_ORIGIN)
        .send({ admin: false })
        .expect(200);
      const res = await t.http().get('/api/admin/users').set('x-api-key', key).expect(403);
      expect(res.body).toEqual(ADMIN_REQUIRED);
      // The demoted key cannot mint an admin-scoped key either.
      const mint = await t.http().post('/api/account/api-keys').set('x-api-key', key).send({ name: 'x', permissions: ['users.read'] }).expect(403);
      expect(mint.body).toEqual(SCOPE_EXCEEDS_OWNER);
    });
  });

  describe('API-key-only and session-only routes', () => {
    it('should answer 401 API_KEY_REQUIRED when an API-key-only route is called with a session', async () => {
      const { cookie } = await signedInUser({ admin: true });
      const res = await t.http().get('/api/test/key-only').set('Cookie', cookie).expect(401);
      expect(res.body).toEqual(API_KEY_REQUIRED);
    });

    it('should answer 401 API_KEY_REQUIRED when an API-key-only route is called without credentials', async () => {
      const res = await t.http().get('/api/test/key-only').expect(401);
      expect(res.body).toEqual(API_KEY_REQUIRED);
    });

    it('should answer 200 when an API-key-only route is called with a key', async () => {
      const { cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const bearer = await t.http().get('/api/test/key-only').set('Authorization', `Bearer ${key}`).expect(200);
      expect(bearer.body).toEqual({ data: 'ok' });
      const header = await t.http().get('/api/test/key-only').set('x-api-key', key).expect(200);
      expect(header.body).toEqual({ data: 'ok' });
    });

    it('should answer 403 SESSION_REQUIRED and keep the password when PUT /api/account/password is called with a key', async () => {
      const { user, cookie } = await signedInUser();
      const key = await createApiKey(t, cookie);
      const res = await t
        .http()
        .put('/api/account/password')
        .set('Authorization', `Bearer ${key}`)
        .send({ currentPassword: DEFAULT_PASSWORD, newPassword: 'a password set by a key' })
        .expect(403);
      expect(res.body).toEqual(denial(403, 'SESSION_REQUIRED', 'This action requires a signed-in session, not an API key'));
      await signIn(t, user.email, DEFAULT_PASSWORD);
    });
  });

  describe('limit', () => {
    it('should answer 409 API_KEY_LIMIT_REACHED when a user creates a 26th key', async () => {
      const { cookie } = await signedInUser();
      for (let i = 0; i < 25; i++) {
        await postKey(cookie, { name: `key ${i}` }).expect(201);
      }
      const res = await postKey(cookie, { name: 'one too many' }).expect(409);
      expect(res.body).toEqual(denial(409, 'API_KEY_LIMIT_REACHED', 'You have reached the limit of 25 API keys; revoke one first'));
      const keys = await listKeys(cookie);
      expect(keys).toHaveLength(25);
      await t.http().delete(`/api/account/api-keys/${keys[0].identifier}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
      await postKey(cookie, { name: 'after revoking one' }).expect(201);
    });

    it('should keep at most 25 keys when keys are created concurrently', async () => {
      const { cookie } = await signedInUser();
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => postKey(cookie, { name: `parallel ${i}` })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(25);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused).toHaveLength(15);
      for (const res of refused) {
        expect(res.body).toEqual(denial(409, 'API_KEY_LIMIT_REACHED', 'You have reached the limit of 25 API keys; revoke one first'));
      }
      expect(await listKeys(cookie)).toHaveLength(25);
    });
  });
});
