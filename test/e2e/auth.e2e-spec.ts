import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { DAY, HOUR, MINUTE } from 'test/utils/fake-clock';
import { dbKinds } from 'test/utils/test-db';

describe.each(dbKinds(['postgres']))('auth and sessions (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should sign in by e-mail with a HttpOnly SameSite=Lax cookie and return user and session', async () => {
    const user = await createUser(t.app);
    const res = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200);
    const raw = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('hatchery_session='))!;
    expect(raw).toMatch(/; HttpOnly/);
    expect(raw).toMatch(/; SameSite=Lax/);
    expect(raw).toMatch(/; Path=\//);
    expect(raw).not.toMatch(/; Secure/); // NODE_ENV=test; production sets Secure
    expect(res.body).toEqual({
      data: {
        user: {
          id: user.id,
          uuid: user.uuid,
          username: user.username,
          email: user.email,
          name: user.name,
          admin: false,
          twoFactorEnabled: false,
          createdAt: user.createdAt.toISOString(),
          updatedAt: user.updatedAt.toISOString(),
        },
        session: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), expiresAt: new Date(t.clock.now().getTime() + 14 * DAY).toISOString() },
        twoFactorSetupRequired: false,
      },
    });
  });

  it('should sign in by username, case-insensitively', async () => {
    const user = await createUser(t.app);
    const res = await t
      .http()
      .post('/api/auth/sign-in/username')
      .send({ username: user.username.toUpperCase(), password: DEFAULT_PASSWORD })
      .expect(200);
    expect(sessionCookie(res)).toBeDefined();
    const session = await t.http().get('/api/auth/session').set('Cookie', sessionCookie(res)!).expect(200);
    expect(session.body.data.user.id).toBe(user.id);
    expect(session.body.data.session).toMatchObject({ current: true, fresh: true });
  });

  it('should refuse a wrong password and an unknown account alike, with 401 INVALID_CREDENTIALS', async () => {
    const user = await createUser(t.app);
    const wrong = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: 'not the password' }).expect(401);
    const unknown = await t.http().post('/api/auth/sign-in/email').send({ email: 'nobody@example.test', password: 'x' }).expect(401);
    for (const res of [wrong, unknown]) {
      expect(res.body).toEqual({ statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Invalid credentials', requestId: expect.any(String) });
      expect(sessionCookie(res)).toBeUndefined();
    }
  });

  it('should answer 401 "Authentication required" without a session', async () => {
    const res = await t.http().get('/api/account').expect(401);
    expect(res.body).toEqual({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Authentication required', requestId: expect.any(String) });
  });

  it('should keep at most 5 sessions per user and revoke the oldest on the sixth sign-in', async () => {
    const user = await createUser(t.app);
    const cookies: string[] = [];
    for (let i = 0; i < 6; i++) {
      cookies.push(await signIn(t, user.email));
      t.clock.advance(1000); // distinct creation times
    }
    const first = await t.http().get('/api/account').set('Cookie', cookies[0]).expect(401);
    expect(first.body.message).toBe('Authentication required');
    for (const cookie of cookies.slice(1)) {
      await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    }
    const list = await t.http().get('/api/account/sessions').set('Cookie', cookies[5]).expect(200);
    expect(list.body.data).toHaveLength(5);
    expect(list.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
  });

  it('should answer 401 "Authentication required" once a session has expired after 14 days', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    t.clock.advance(11 * HOUR); // not yet refreshable, so the expiry stays put
    await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    t.clock.advance(14 * DAY - 11 * HOUR);
    const res = await t.http().get('/api/account').set('Cookie', cookie).expect(401);
    expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', message: 'Authentication required' });
  });

  it('should refresh a session only once 12 hours have passed since the last refresh', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const before = (await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data.session.expiresAt;

    t.clock.advance(12 * HOUR - MINUTE);
    const early = await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200);
    expect(sessionCookie(early)).toBeUndefined();
    expect(early.body.data.session.expiresAt).toBe(before);

    t.clock.advance(MINUTE);
    const due = await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200);
    expect(sessionCookie(due)).toBe(cookie);
    expect(due.body.data.session.expiresAt).toBe(new Date(t.clock.now().getTime() + 14 * DAY).toISOString());

    t.clock.advance(HOUR);
    const after = await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200);
    expect(sessionCookie(after)).toBeUndefined();
    expect(after.body.data.session.expiresAt).toBe(due.body.data.session.expiresAt);

    // Refreshed sessions outlive the original 14 days.
    t.clock.advance(14 * DAY - 2 * HOUR);
    await t.http().get('/api/account').set('Cookie', cookie).expect(200);
  });

  it('should sign out: the session is deleted and the cookie cleared', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const res = await t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^hatchery_session=;.*Expires=Thu, 01 Jan 1970/);
    await t.http().get('/api/account').set('Cookie', cookie).expect(401);
  });

  it('should refuse cookie-authenticated writes without a trusted Origin or Referer', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const none = await t.http().post('/api/auth/sign-out').set('Cookie', cookie).expect(403);
    expect(none.body).toMatchObject({ statusCode: 403, code: 'UNTRUSTED_ORIGIN' });
    await t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Origin', 'https://evil.example').expect(403);
    await t.http().post('/api/auth/sign-out').set('Cookie', cookie).set('Referer', `${TEST_ORIGIN}/account`).expect(204);
  });

  it('should refuse a browser sign-in posted from an untrusted origin', async () => {
    const user = await createUser(t.app);
    const res = await t
      .http()
      .post('/api/auth/sign-in/email')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email, password: DEFAULT_PASSWORD })
      .expect(403);
    expect(res.body.code).toBe('UNTRUSTED_ORIGIN');
  });

  it('should require a fresh session (5 minutes) to change the password, then revoke the other sessions', async () => {
    const user = await createUser(t.app);
    const other = await signIn(t, user.email);
    t.clock.advance(6 * MINUTE);
    const stale = await signIn(t, user.email);
    t.clock.advance(6 * MINUTE);
    const body = { currentPassword: DEFAULT_PASSWORD, newPassword: 'a brand new password' };
    const notFresh = await t.http().put('/api/account/password').set('Cookie', stale).set('Origin', TEST_ORIGIN).send(body).expect(403);
    expect(notFresh.body).toMatchObject({ code: 'SESSION_NOT_FRESH' });

    const fresh = await signIn(t, user.email);
    const wrong = await t
      .http()
      .put('/api/account/password')
      .set('Cookie', fresh)
      .set('Origin', TEST_ORIGIN)
      .send({ ...body, currentPassword: 'nope' })
      .expect(400);
    expect(wrong.body.code).toBe('INVALID_PASSWORD');
    await t.http().put('/api/account/password').set('Cookie', fresh).set('Origin', TEST_ORIGIN).send(body).expect(204);
    await t.http().get('/api/account').set('Cookie', fresh).expect(200);
    await t.http().get('/api/account').set('Cookie', other).expect(401);
    await t.http().get('/api/account').set('Cookie', stale).expect(401);
    await signIn(t, user.email, 'a brand new password');
  });

  it('should change the e-mail with a fresh session and the password', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const res = await t
      .http()
      .put('/api/account/email')
      .set('Cookie', cookie)
      .set('Origin', TEST_ORIGIN)
      .send({ email: `New-${user.email}`, password: DEFAULT_PASSWORD })
      .expect(200);
    expect(res.body.data.email).toBe(`new-${user.email}`);
  });

  it('should list sessions and revoke one, and revoke all but the current', async () => {
    const user = await createUser(t.app);
    const a = await signIn(t, user.email);
    const b = await signIn(t, user.email);
    const c = await signIn(t, user.email);
    const list = await t.http().get('/api/account/sessions').set('Cookie', a).expect(200);
    expect(list.body.data).toHaveLength(3);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id', 'ip', 'lastSeenAt', 'userAgent']);
    const bId = (await t.http().get('/api/auth/session').set('Cookie', b).expect(200)).body.data.session.id;
    await t.http().delete(`/api/account/sessions/${bId}`).set('Cookie', a).set('Origin', TEST_ORIGIN).expect(204);
    await t.http().get('/api/account').set('Cookie', b).expect(401);
    await t.http().delete(`/api/account/sessions/${bId}`).set('Cookie', a).set('Origin', TEST_ORIGIN).expect(404);
    await t.http().delete('/api/account/sessions/not-a-uuid').set('Cookie', a).set('Origin', TEST_ORIGIN).expect(404);
    await t.http().delete('/api/account/sessions').set('Cookie', a).set('Origin', TEST_ORIGIN).expect(204);
    await t.http().get('/api/account').set('Cookie', c).expect(401);
    await t.http().get('/api/account').set('Cookie', a).expect(200);
  });

  it("should not let a user revoke another user's session", async () => {
    const alice = await createUser(t.app);
    const bob = await createUser(t.app);
    const aliceCookie = await signIn(t, alice.email);
    const bobCookie = await signIn(t, bob.email);
    const bobSession = (await t.http().get('/api/auth/session').set('Cookie', bobCookie).expect(200)).body.data.session.id;
    await t.http().delete(`/api/account/sessions/${bobSession}`).set('Cookie', aliceCookie).set('Origin', TEST_ORIGIN).expect(404);
    await t.http().get('/api/account').set('Cookie', bobCookie).expect(200);
  });

  it('should refuse sign-up while registration is disabled', async () => {
    const res = await t
      .http()
      .post('/api/auth/sign-up/email')
      .send({ name: 'New', username: 'newcomer', email: 'newcomer@example.test', password: 'long enough password' })
      .expect(403);
    expect(res.body).toMatchObject({ statusCode: 403, code: 'REGISTRATION_DISABLED' });
  });

  it('should tell the sign-in page, without credentials, the name, that registration is off and that no CAPTCHA is asked', async () => {
    const res = await t.http().get('/api/settings').expect(200);
    expect(res.body).toEqual({ data: { appName: 'Hatchery', registrationEnabled: false, fileEditMaxMiB: 4, captcha: null } });
  });

  it('should answer 400 VALIDATION_FAILED with details, and refuse unknown fields', async () => {
    const bad = await t.http().post('/api/auth/sign-in/email').send({ email: 42 }).expect(400);
    expect(bad.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed' });
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'email' }),
        expect.objectContaining({ field: 'password' }),
      ]),
    );
    const extra = await t.http().post('/api/auth/sign-in/email').send({ email: 'a@b.test', password: 'x', admin: true }).expect(400);
    expect(extra.body.details).toEqual([{ field: 'admin', message: 'property admin should not exist' }]);
  });

  it('should keep the cap of 5 under concurrent sign-ins', async () => {
    const user = await createUser(t.app);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const statuses = await Promise.all(results.map((r) => t.http().get('/api/account').set('Cookie', sessionCookie(r)!)));
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(statuses.filter((r) => r.status === 401)).toHaveLength(7);
  });
});

describe.each(dbKinds(['postgres']))('sign-up when enabled (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, env: { REGISTRATION_ENABLED: 'true', APP_NAME: 'Game Hut', FILE_EDIT_MAX_MB: '16' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('should say so in the public settings, with the configured name and edit size', async () => {
    const res = await t.http().get('/api/settings').expect(200);
    expect(res.body.data).toEqual({ appName: 'Game Hut', registrationEnabled: true, fileEditMaxMiB: 16, captcha: null });
  });

  it('should create a non-admin account and sign it in', async () => {
    const res = await t
      .http()
      .post('/api/auth/sign-up/email')
      .send({ name: 'New Person', username: 'Newcomer', email: 'Newcomer@Example.test', password: 'long enough password' })
      .expect(201);
    expect(res.body.data.user).toMatchObject({ username: 'newcomer', email: 'newcomer@example.test', admin: false, name: 'New Person' });
    const cookie = sessionCookie(res)!;
    await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    const dup = await t
      .http()
      .post('/api/auth/sign-up/email')
      .send({ name: 'Other', username: 'other', email: 'newcomer@example.test', password: 'long enough password' })
      .expect(409);
    expect(dup.body).toMatchObject({ statusCode: 409, code: 'USER_EMAIL_TAKEN' });
  });
});
