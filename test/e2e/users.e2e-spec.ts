import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';
import { UsersRepository } from 'src/modules/users/users.repository';
import { createEgg, createNest, createServerUsing } from 'test/factories/egg.factory';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

const USERS = '/api/admin/users';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const USERNAME_RULE = 'username must be 1 to 191 characters of a-z, 0-9, _, . and -, starting with a letter or digit';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The response body of a user, as the admin API must render it: no password hash, ids as decimal strings. */
const userBody = (user: UserEntity): Record<string, unknown> => ({
  id: user.id,
  uuid: user.uuid,
  username: user.username,
  email: user.email,
  name: user.name,
  admin: user.admin,
  twoFactorEnabled: user.twoFactorEnabled,
  suspended: user.suspended,
  externalId: user.externalId,
  invitedAt: user.invitedAt?.toISOString() ?? null,
  lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
  language: user.language,
  roleIds: user.adminRoleIds,
  hasPasskey: user.hasPasskey,
  createdAt: user.createdAt.toISOString(),
  updatedAt: user.updatedAt.toISOString(),
});

const expectError = (res: Response, statusCode: number, code: string, message: string): void => {
  expect(res.body).toEqual({ statusCode, code, message, requestId: expect.any(String) });
};

const expectValidation = (res: Response, details: { field: string; message: string }[]): void => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details, requestId: expect.any(String) });
};

/** A cookie-authenticated request from the panel's own origin. */
const asCookie = (t: TestApp, method: Method, path: string, cookie: string) =>
  t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);

const reload = (t: TestApp, id: string): Promise<UserEntity | null> => t.app.get(UsersRepository).findById(id);

describe.each(dbKinds(['postgres']))('admin users (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;

  const as = (method: Method, path: string, c = cookie) => asCookie(t, method, path, c);
  const count = (): Promise<number> => t.app.get(UsersRepository).count();
  const newUserBody = (overrides: Record<string, unknown> = {}) => {
    const suffix = randomBytes(4).toString('hex');
    return { username: `made-${suffix}`, email: `made-${suffix}@example.test`, name: 'Made By Admin', password: 'a long enough password', ...overrides };
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('should answer 201 with exactly the public user fields, lower-cased, when an admin creates a user', async () => {
      const res = await as('post', USERS)
        .send({ username: 'Mixed.Case_User', email: 'Mixed.Case@Example.TEST', name: 'Mixed Case', password: 'a long enough password', admin: true })
        .expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(/^[1-9]\d*$/),
          uuid: expect.stringMatching(UUID),
          username: 'mixed.case_user',
          email: 'mixed.case@example.test',
          name: 'Mixed Case',
          admin: true,
          twoFactorEnabled: false,
          suspended: false,
          externalId: null,
          invitedAt: null,
          lastSignInAt: null,
          language: 'en',
          roleIds: [],
          hasPasskey: false,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const stored = (await reload(t, res.body.data.id))!;
      expect(res.body.data).toEqual(userBody(stored));
      // The hash is stored, never echoed.
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      expect(res.text).not.toContain(stored.passwordHash);
      expect(res.text).not.toContain('a long enough password');
    });

    it('should let the created user sign in with the given password when created with one', async () => {
      const body = newUserBody({ password: 'created with this password' });
      await as('post', USERS).send(body).expect(201);
      const signedIn = await t.http().post('/api/auth/sign-in/email').send({ email: body.email, password: 'created with this password' }).expect(200);
      expect(signedIn.body.data.user).toMatchObject({ username: body.username, admin: false });
      await t.http().post('/api/auth/sign-in/email').send({ email: body.email, password: 'some other password' }).expect(401);
    });

    it('should create an account nobody can sign in to when no password is given', async () => {
      const body = newUserBody();
      delete (body as { password?: string }).password;
      const res = await as('post', USERS).send(body).expect(201);
      expect(res.body.data).toMatchObject({ username: body.username, name: 'Made By Admin', admin: false });
      await t.http().post('/api/auth/sign-in/email').send({ email: body.email, password: DEFAULT_PASSWORD }).expect(401);
    });

    it.each([
      ['a malformed e-mail', { email: 'not-an-email' }, [{ field: 'email', message: 'email must be an email' }]],
      ['a password shorter than 8', { password: 'short12' }, [{ field: 'password', message: 'password must be longer than or equal to 8 characters' }]],
      [
        'a username with a space and !',
        { username: 'bad user!' },
        [{ field: 'username', message: USERNAME_RULE }],
      ],
      [
        'a username starting with a dot',
        { username: '.hidden' },
        [{ field: 'username', message: USERNAME_RULE }],
      ],
      ['a non-boolean admin', { admin: 'yes' }, [{ field: 'admin', message: 'admin must be a boolean value' }]],
      ['an unknown field', { role: 'owner' }, [{ field: 'role', message: 'property role should not exist' }]],
      // Shown, but set only through the Pterodactyl application API.
      ['a language', { language: 'de' }, [{ field: 'language', message: 'property language should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and create nothing when the body has %s', async (_label, override, details) => {
      const before = await count();
      const res = await as('post', USERS).send(newUserBody(override));
      expectValidation(res, details);
      expect(await count()).toBe(before);
    });

    it('should list every missing required field when username and email are absent', async () => {
      const res = await as('post', USERS).send({ password: 'a long enough password' });
      expectValidation(res, [
        { field: 'username', message: 'username must be a string' },
        { field: 'email', message: 'email must be an email' },
      ]);
    });

    it('should answer 409 USER_EMAIL_TAKEN and add no row when the e-mail exists in another case', async () => {
      const existing = await createUser(t.app);
      const before = await count();
      const res = await as('post', USERS)
        .send(newUserBody({ email: existing.email.toUpperCase() }))
        .expect(409);
      expectError(res, 409, 'USER_EMAIL_TAKEN', 'A user with this e-mail already exists');
      expect(await count()).toBe(before);
    });

    it('should answer 409 USER_USERNAME_TAKEN and add no row when the username exists in another case', async () => {
      const existing = await createUser(t.app);
      const before = await count();
      const res = await as('post', USERS)
        .send(newUserBody({ username: existing.username.toUpperCase() }))
        .expect(409);
      expectError(res, 409, 'USER_USERNAME_TAKEN', 'A user with this username already exists');
      expect(await count()).toBe(before);
    });
  });

  describe('external id', () => {
    it('should keep the id an outside system gives, find the user by it, and refuse it twice with 409', async () => {
      const externalId = `whmcs-${Date.now()}`;
      const created = await as('post', USERS).send(newUserBody({ externalId })).expect(201);
      expect(created.body.data.externalId).toBe(externalId);
      const found = await as('get', `${USERS}/external/${externalId}`).expect(200);
      expect(found.body.data).toEqual(created.body.data);
      const taken = await as('post', USERS).send(newUserBody({ externalId }));
      expectError(taken, 409, 'USER_EXTERNAL_ID_TAKEN', 'A user with this external id already exists');
      const cleared = await as('patch', `${USERS}/${created.body.data.id}`).send({ externalId: null }).expect(200);
      expect(cleared.body.data.externalId).toBeNull();
      expectError(await as('get', `${USERS}/external/${externalId}`), 404, 'USER_NOT_FOUND', 'User not found');
    });
  });

  describe('get', () => {
    it('should answer the whole user when the id exists', async () => {
      const user = await createUser(t.app);
      const res = await as('get', `${USERS}/${user.id}`).expect(200);
      expect(res.body).toEqual({ data: userBody(user) });
    });

    it.each(['999999999', 'abc', '0', '-1', '1.5', '01', '99999999999999999999999'])(
      'should answer 404 USER_NOT_FOUND when the id is %s',
      async (id) => {
        for (const method of ['get', 'patch', 'delete'] as const) {
          const res = await as(method, `${USERS}/${id}`).send(method === 'patch' ? { name: 'x' } : undefined);
          expect(res.status).toBe(404);
          expectError(res, 404, 'USER_NOT_FOUND', 'User not found');
        }
      },
    );
  });

  describe('update', () => {
    it('should change name and admin and keep the other fields when patched', async () => {
      const user = await createUser(t.app);
      const res = await as('patch', `${USERS}/${user.id}`).send({ name: 'Renamed', admin: true }).expect(200);
      const stored = (await reload(t, user.id))!;
      expect(res.body).toEqual({ data: { ...userBody(user), name: 'Renamed', admin: true, updatedAt: stored.updatedAt.toISOString() } });
      expect(stored).toMatchObject({ name: 'Renamed', admin: true, username: user.username, email: user.email, passwordHash: user.passwordHash });
    });

    it('should store a patched e-mail and username lower-cased when sent in upper case', async () => {
      const user = await createUser(t.app);
      const res = await as('patch', `${USERS}/${user.id}`)
        .send({ email: `Patched-${user.email.toUpperCase()}`, username: `Patched-${user.username}` })
        .expect(200);
      expect(res.body.data).toMatchObject({ email: `patched-${user.email}`, username: `patched-${user.username}` });
      expect(await reload(t, user.id)).toMatchObject({ email: `patched-${user.email}`, username: `patched-${user.username}` });
    });

    it.each([
      ['name', [{ field: 'name', message: 'name must be a string' }]],
      ['admin', [{ field: 'admin', message: 'admin must be a boolean value' }]],
      ['email', [{ field: 'email', message: 'email must be an email' }]],
      ['username', [{ field: 'username', message: 'username must be a string' }]],
      ['password', [{ field: 'password', message: 'password must be a string' }]],
    ])('should answer 400 VALIDATION_FAILED and change nothing when %s is null', async (field, details) => {
      const user = await createUser(t.app);
      const res = await as('patch', `${USERS}/${user.id}`).send({ [field]: null });
      expectValidation(res, details);
      const stored = (await reload(t, user.id))!;
      expect(userBody(stored)).toEqual(userBody(user));
      expect(stored.passwordHash).toBe(user.passwordHash);
    });

    it('should answer 400 VALIDATION_FAILED when a patch carries an unknown field', async () => {
      const user = await createUser(t.app);
      const res = await as('patch', `${USERS}/${user.id}`).send({ name: 'x', passwordHash: 'forged' });
      expectValidation(res, [{ field: 'passwordHash', message: 'property passwordHash should not exist' }]);
      expect((await reload(t, user.id))!.passwordHash).toBe(user.passwordHash);
    });

    it("should answer 409 USER_EMAIL_TAKEN and keep the row when a patch takes another user's e-mail", async () => {
      const [a, b] = [await createUser(t.app), await createUser(t.app)];
      const res = await as('patch', `${USERS}/${a.id}`).send({ email: b.email, name: 'Should Not Stick' }).expect(409);
      expectError(res, 409, 'USER_EMAIL_TAKEN', 'A user with this e-mail already exists');
      expect(userBody((await reload(t, a.id))!)).toEqual(userBody(a));
    });

    it("should answer 409 USER_USERNAME_TAKEN and keep the row when a patch takes another user's username", async () => {
      const [a, b] = [await createUser(t.app), await createUser(t.app)];
      const res = await as('patch', `${USERS}/${a.id}`).send({ username: b.username }).expect(409);
      expectError(res, 409, 'USER_USERNAME_TAKEN', 'A user with this username already exists');
      expect(userBody((await reload(t, a.id))!)).toEqual(userBody(a));
    });

    it("should revoke the user's sessions and switch the password when an admin sets a new one", async () => {
      const user = await createUser(t.app);
      const bystander = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      const bystanderCookie = await signIn(t, bystander.email);
      await t.http().get('/api/account').set('Cookie', userCookie).expect(200);

      const res = await as('patch', `${USERS}/${user.id}`).send({ password: 'set by the admin' }).expect(200);
      expect(res.text).not.toContain('set by the admin');
      expect(res.text).not.toContain('$argon2');

      const old = await t.http().get('/api/account').set('Cookie', userCookie).expect(401);
      expectError(old, 401, 'UNAUTHENTICATED', 'Authentication required');
      await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401);
      await signIn(t, user.email, 'set by the admin');
      // Nobody else loses a session.
      await t.http().get('/api/account').set('Cookie', bystanderCookie).expect(200);
      await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    });

    it('should keep the sessions when a patch does not touch the password', async () => {
      const user = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      await as('patch', `${USERS}/${user.id}`).send({ name: 'Only The Name' }).expect(200);
      await t.http().get('/api/account').set('Cookie', userCookie).expect(200);
    });

    it('should answer 400 and keep the old password when the new one is shorter than 8', async () => {
      const user = await createUser(t.app);
      const res = await as('patch', `${USERS}/${user.id}`).send({ password: 'short' });
      expectValidation(res, [{ field: 'password', message: 'password must be longer than or equal to 8 characters' }]);
      await signIn(t, user.email);
    });
  });

  describe('delete', () => {
    it("should answer 204, then 404, and end the deleted user's sessions when an admin deletes a user", async () => {
      const user = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      const before = await count();
      const res = await as('delete', `${USERS}/${user.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await count()).toBe(before - 1);
      expectError(await as('get', `${USERS}/${user.id}`).expect(404), 404, 'USER_NOT_FOUND', 'User not found');
      expectError(await as('delete', `${USERS}/${user.id}`).expect(404), 404, 'USER_NOT_FOUND', 'User not found');
      await t.http().get('/api/account').set('Cookie', userCookie).expect(401);
    });

    it('should delete another administrator when more than one exists', async () => {
      const other = await createUser(t.app, { admin: true });
      await as('delete', `${USERS}/${other.id}`).expect(204);
      expect(await reload(t, other.id)).toBeNull();
    });

    it('should answer 409 USER_HAS_SERVERS and keep the account and its sessions while the user owns a server', async () => {
      const owner = await createUser(t.app);
      const ownerCookie = await signIn(t, owner.email);
      const egg = await createEgg(t.app, (await createNest(t.app)).id);
      await createServerUsing(t.app, egg.id, owner.id);
      const before = await count();
      const res = await as('delete', `${USERS}/${owner.id}`).expect(409);
      expectError(res, 409, 'USER_HAS_SERVERS', 'The user owns servers; delete or transfer them first');
      expect(await count()).toBe(before);
      await t.http().get('/api/account').set('Cookie', ownerCookie).expect(200);
    });

    it('should answer 409 USER_CANNOT_DELETE_SELF and keep the account when an admin deletes themselves', async () => {
      const res = await as('delete', `${USERS}/${admin.id}`).expect(409);
      expectError(res, 409, 'USER_CANNOT_DELETE_SELF', 'You cannot delete your own account');
      expect(await reload(t, admin.id)).not.toBeNull();
      await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    });
  });

  describe('list', () => {
    it('should answer the first page of 50 in id order when no paging is given', async () => {
      await createUser(t.app);
      const total = await count();
      const res = await as('get', USERS).expect(200);
      expect(res.body.meta).toEqual({
        pagination: { total, count: Math.min(total, 50), perPage: 50, currentPage: 1, totalPages: Math.ceil(total / 50) },
      });
      const ids = (res.body.data as { id: string }[]).map((u) => BigInt(u.id));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      // The admin signed in (beforeAll): the list says when.
      expect(res.body.data[0]).toEqual(userBody((await reload(t, admin.id))!));
      expect(res.body.data[0].lastSignInAt).toMatch(ISO);
      for (const u of res.body.data as Record<string, unknown>[]) {
        expect(Object.keys(u).sort()).toEqual(['admin', 'createdAt', 'email', 'externalId', 'hasPasskey', 'id', 'invitedAt', 'language', 'lastSignInAt', 'name', 'roleIds', 'suspended', 'twoFactorEnabled', 'updatedAt', 'username', 'uuid']);
      }
    });

    it.each([
      ['0', [{ field: 'perPage', message: 'perPage must not be less than 1' }]],
      ['101', [{ field: 'perPage', message: 'perPage must not be greater than 100' }]],
    ])('should answer 400 VALIDATION_FAILED when perPage is %s', async (perPage, details) => {
      expectValidation(await as('get', `${USERS}?perPage=${perPage}`), details);
    });

    it('should answer 400 VALIDATION_FAILED when perPage is not a number', async () => {
      expectValidation(await as('get', `${USERS}?perPage=abc`), [
        { field: 'perPage', message: 'perPage must be an integer number' },
      ]);
    });

    it('should answer 400 VALIDATION_FAILED when page is 0 or an unknown query parameter is given', async () => {
      expectValidation(await as('get', `${USERS}?page=0`), [{ field: 'page', message: 'page must not be less than 1' }]);
      expectValidation(await as('get', `${USERS}?sort=name`), [{ field: 'sort', message: 'property sort should not exist' }]);
    });
  });

  describe('authorization', () => {
    const routes = (id: string): [Method, string, object?][] => [
      ['get', USERS],
      ['post', USERS, { username: 'intruder', email: 'intruder@example.test', password: 'a long enough password' }],
      ['get', `${USERS}/${id}`],
      ['patch', `${USERS}/${id}`, { admin: true }],
      ['delete', `${USERS}/${id}`],
    ];

    it('should answer 403 ADMIN_REQUIRED on every route and change nothing when the session is not an admin', async () => {
      const created = await createUser(t.app);
      const userCookie = await signIn(t, created.email);
      const user = (await reload(t, created.id))!;
      const before = await count();
      for (const [method, path, body] of routes(user.id)) {
        const res = await as(method, path, userCookie).send(body);
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expectError(res, 403, 'ADMIN_REQUIRED', 'This action requires an administrator');
      }
      expect(await count()).toBe(before);
      expect(userBody((await reload(t, user.id))!)).toEqual(userBody(user));
    });

    it('should answer 401 UNAUTHENTICATED on every route when the caller is anonymous', async () => {
      const user = await createUser(t.app);
      for (const [method, path, body] of routes(user.id)) {
        const res = await t.http()[method](path).set('Origin', TEST_ORIGIN).send(body);
        expect([method, path, res.status]).toEqual([method, path, 401]);
        expectError(res, 401, 'UNAUTHENTICATED', 'Authentication required');
      }
      expect(await reload(t, user.id)).not.toBeNull();
    });

    it('should answer 403 UNTRUSTED_ORIGIN and create nothing when a cookie write has no trusted Origin', async () => {
      const before = await count();
      const res = await t.http().post(USERS).set('Cookie', cookie).set('Origin', 'https://evil.example').send(newUserBody()).expect(403);
      expectError(res, 403, 'UNTRUSTED_ORIGIN', 'This panel expects requests from http://panel.test (APP_URL); this request came from https://evil.example. Set APP_URL to the address you open the panel at.');
      expect(await count()).toBe(before);
    });

    it('should allow reads but answer 403 MISSING_SCOPE on writes when an admin API key holds only users.read', async () => {
      const key = await createApiKey(t, cookie, { permissions: ['users.read'] });
      const target = await createUser(t.app);
      const before = await count();
      const list = await t.http().get(USERS).set('x-api-key', key).expect(200);
      expect(list.body.meta.pagination.total).toBe(before);
      const one = await t.http().get(`${USERS}/${target.id}`).set('Authorization', `Bearer ${key}`).expect(200);
      expect(one.body).toEqual({ data: userBody(target) });
      for (const [method, path, body] of routes(target.id).filter(([m]) => m !== 'get')) {
        const res = await t.http()[method](path).set('x-api-key', key).send(body);
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expectError(res, 403, 'MISSING_SCOPE', 'The API key lacks the users.write scope this action requires');
      }
      expect(await count()).toBe(before);
      expect(userBody((await reload(t, target.id))!)).toEqual(userBody(target));
    });

    it('should allow writes when an admin API key holds users.write', async () => {
      const key = await createApiKey(t, cookie, { permissions: ['users.read', 'users.write'] });
      const res = await t.http().post(USERS).set('x-api-key', key).send(newUserBody()).expect(201);
      await t.http().delete(`${USERS}/${res.body.data.id}`).set('x-api-key', key).expect(204);
    });

    it('should answer 403 ADMIN_REQUIRED when the API key belongs to a non-admin', async () => {
      const user = await createUser(t.app);
      const key = await createApiKey(t, await signIn(t, user.email));
      expectError(await t.http().get(USERS).set('x-api-key', key).expect(403), 403, 'ADMIN_REQUIRED', 'This action requires an administrator');
    });
  });
});

describe.each(dbKinds(['postgres']))('admin users pagination (%s)', (db) => {
  let t: TestApp;
  let users: UserEntity[];
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({ db });
    const admin = await createUser(t.app, { admin: true });
    users = [admin];
    for (let i = 0; i < 4; i++) {
      users.push(await createUser(t.app));
    }
    cookie = await signIn(t, admin.email);
    users[0] = (await reload(t, admin.id))!;
  });

  afterAll(async () => {
    await t.close();
  });

  it.each([
    [1, 2, [0, 1]],
    [2, 2, [2, 3]],
    [3, 2, [4]],
    [4, 2, []],
  ])('should answer the users and meta of page %i when perPage is %i', async (page, perPage, indexes) => {
    const res = await t.http().get(`${USERS}?page=${page}&perPage=${perPage}`).set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({
      data: indexes.map((i) => userBody(users[i])),
      meta: { pagination: { total: 5, count: indexes.length, perPage, currentPage: page, totalPages: 3 } },
    });
  });

  it('should answer every user on one page when perPage is 100', async () => {
    const res = await t.http().get(`${USERS}?perPage=100`).set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({
      data: users.map(userBody),
      meta: { pagination: { total: 5, count: 5, perPage: 100, currentPage: 1, totalPages: 1 } },
    });
  });
});

describe.each(dbKinds(['postgres']))('last administrator (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;

  const countAdmins = (): Promise<number> => t.app.get(UsersRepository).countAdmins();

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    await createUser(t.app); // a non-admin, who does not count
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should answer 409 USER_LAST_ADMIN and keep the flag when the only admin demotes themselves', async () => {
    const res = await asCookie(t, 'patch', `${USERS}/${admin.id}`, cookie).send({ admin: false, name: 'Not Applied' }).expect(409);
    expectError(res, 409, 'USER_LAST_ADMIN', 'The last administrator cannot be removed or demoted');
    expect(await reload(t, admin.id)).toMatchObject({ admin: true, name: admin.name });
  });

  it('should demote one of two admins, and refuse the next demotion, when a second admin exists', async () => {
    const second = await createUser(t.app, { admin: true });
    const res = await asCookie(t, 'patch', `${USERS}/${second.id}`, cookie).send({ admin: false }).expect(200);
    expect(res.body.data).toMatchObject({ id: second.id, admin: false });
    expect(await countAdmins()).toBe(1);
    const again = await asCookie(t, 'patch', `${USERS}/${admin.id}`, cookie).send({ admin: false }).expect(409);
    expect(again.body.code).toBe('USER_LAST_ADMIN');
  });

  it('should let an admin demote themselves when another admin remains', async () => {
    const other = await createUser(t.app, { admin: true });
    const otherCookie = await signIn(t, other.email);
    await asCookie(t, 'patch', `${USERS}/${other.id}`, otherCookie).send({ admin: false }).expect(200);
    // The demoted session has lost the admin routes at once.
    const res = await asCookie(t, 'get', USERS, otherCookie).expect(403);
    expect(res.body.code).toBe('ADMIN_REQUIRED');
    expect(await countAdmins()).toBe(1);
  });

  it('should delete one admin and answer 409 USER_LAST_ADMIN to the other when two admins delete each other at once', async () => {
    // Serially, an admin can only meet the last admin by deleting themselves, so the rule is
    // reached by a race. Hold the admin rows so both requests are inside their check, then let go.
    const other = await createUser(t.app, { admin: true });
    const otherCookie = await signIn(t, other.email);
    const dataSource = t.app.get(DataSource);
    const blocker = dataSource.createQueryRunner();
    await blocker.connect();
    let results: Response[];
    try {
      await blocker.startTransaction();
      await blocker.query('SELECT id FROM "user" WHERE admin FOR UPDATE');
      const pending = [
        asCookie(t, 'delete', `${USERS}/${other.id}`, cookie).then((r) => r),
        asCookie(t, 'delete', `${USERS}/${admin.id}`, otherCookie).then((r) => r),
      ];
      await waitFor(async () => {
        const [{ waiting }] = await dataSource.query<{ waiting: number }[]>(
          "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return waiting >= 2;
      });
      await blocker.rollbackTransaction();
      results = await Promise.all(pending);
    } finally {
      if (blocker.isTransactionActive) {
        await blocker.rollbackTransaction();
      }
      await blocker.release();
    }
    expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
    expectError(results.find((r) => r.status === 409)!, 409, 'USER_LAST_ADMIN', 'The last administrator cannot be removed or demoted');
    expect(await countAdmins()).toBe(1);
  });
});

const waitFor = async (condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
