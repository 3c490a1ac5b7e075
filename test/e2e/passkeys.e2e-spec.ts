import { BackgroundTasks } from 'src/common/background/background-tasks';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { UsersService } from 'src/modules/users/users.service';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { SmtpSink } from 'test/utils/smtp-sink';
import { CeremonyOverrides, SoftAuthenticator } from 'test/utils/soft-authenticator';
import { dbKinds } from 'test/utils/test-db';

const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });

describe.each(dbKinds(['postgres']))('passkeys (%s)', (db) => {
  let t: TestApp;
  let sink: SmtpSink;

  const as = (method: 'get' | 'post' | 'patch' | 'delete', path: string, cookie: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const settled = (): Promise<void> => t.app.get(BackgroundTasks).settled();
  const account = async (cookie: string) => (await as('get', '/api/account', cookie).expect(200)).body.data;

  /** Signs `user` in by password and adds a passkey of a new soft authenticator (or `authenticator`). */
  const register = async (user: UserEntity, name = 'Laptop', authenticator = new SoftAuthenticator(TEST_ORIGIN)) => {
    const cookie = await signIn(t, user.email);
    const options = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    const res = await as('post', '/api/account/passkeys', cookie).send({ name, response: authenticator.create(options) }).expect(201);
    return { cookie, authenticator, passkey: res.body.data };
  };

  const signInOptions = async () => (await t.http().post('/api/auth/passkey/options').expect(200)).body.data.options;
  const signInWith = async (authenticator: SoftAuthenticator, overrides: CeremonyOverrides = {}) =>
    t.http().post('/api/auth/passkey').send({ response: authenticator.get(await signInOptions(), overrides) });

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({ db, env: { SMTP_URL: sink.url, MAIL_FROM: 'Hatchery Panel <panel@example.test>' } });
  });

  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('should register a passkey with options bound to APP_URL, list, rename and remove it, audited and mailed', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    expect(await account(cookie)).toMatchObject({ twoFactorEnabled: false, hasPasskey: false });
    const options = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    expect(options).toMatchObject({
      rp: { id: 'panel.test', name: 'Hatchery' },
      user: { name: user.email, displayName: user.name },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      timeout: 5 * MINUTE,
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const created = await as('post', '/api/account/passkeys', cookie).send({ name: '  Laptop  ', response: authenticator.create(options) }).expect(201);
    expect(created.body).toEqual({
      data: { id: expect.any(String), name: 'Laptop', backedUp: true, transports: ['internal'], createdAt: t.clock.now().toISOString(), lastUsedAt: null },
    });
    const id = created.body.data.id;
    expect(await account(cookie)).toMatchObject({ hasPasskey: true });

    // The next options exclude it.
    const again = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    expect(again.excludeCredentials).toEqual([{ id: authenticator.ids[0], type: 'public-key', transports: ['internal'] }]);

    expect((await as('patch', `/api/account/passkeys/${id}`, cookie).send({ name: 'Work laptop' }).expect(200)).body.data.name).toBe('Work laptop');
    expect((await as('get', '/api/account/passkeys', cookie).expect(200)).body).toEqual({ data: [{ ...created.body.data, name: 'Work laptop' }] });

    await as('delete', `/api/account/passkeys/${id}`, cookie).expect(204);
    expect((await as('get', '/api/account/passkeys', cookie).expect(200)).body).toEqual({ data: [] });
    expect(await account(cookie)).toMatchObject({ hasPasskey: false });
    expect((await as('delete', `/api/account/passkeys/${id}`, cookie).expect(404)).body).toEqual(errorBody(404, 'PASSKEY_NOT_FOUND'));
    // Gone: it signs in no more.
    expect((await signInWith(authenticator)).body).toEqual(errorBody(401, 'PASSKEY_INVALID'));

    const activity = (await as('get', '/api/account/activity', cookie).expect(200)).body.data.map((e: { event: string }) => e.event);
    expect(activity.slice(0, 2)).toEqual(['user.passkey_removed', 'user.passkey_added']);
    await settled();
    expect(sink.to(user.email).map((m) => m.subject)).toEqual(['A passkey was added', 'A passkey was removed']);
    expect(sink.to(user.email)[0].text).toContain('A passkey named "Laptop" was just added');
  });

  it('should refuse a registration from another origin or RP id, without user verification, on a used or foreign challenge, or a second time', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const attempt = async (overrides: CeremonyOverrides) => {
      const options = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
      return as('post', '/api/account/passkeys', cookie).send({ name: 'x', response: authenticator.create(options, overrides) });
    };
    const invalid = { ...errorBody(400, 'PASSKEY_REGISTRATION_INVALID'), details: { reason: expect.any(String) } };
    expect((await attempt({ origin: 'https://evil.test' })).body).toEqual(invalid);
    expect((await attempt({ rpId: 'evil.test' })).body).toEqual(invalid);
    expect((await attempt({ userVerified: false })).body).toEqual(invalid);
    expect((await attempt({ challenge: 'A'.repeat(43) })).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));

    // A challenge works once, and only for the user it was issued to.
    const options = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    const other = await signIn(t, (await createUser(t.app)).email);
    const response = authenticator.create(options);
    expect((await as('post', '/api/account/passkeys', other).send({ name: 'x', response }).expect(400)).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));
    expect((await as('post', '/api/account/passkeys', cookie).send({ name: 'x', response }).expect(400)).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));

    // The same credential again (a new challenge): 409.
    const fresh = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    const first = authenticator.create(fresh);
    await as('post', '/api/account/passkeys', cookie).send({ name: 'one', response: first }).expect(201);
    const replay = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
    const clientData = JSON.parse(Buffer.from(first.response.clientDataJSON, 'base64url').toString());
    const copy = { ...first, response: { ...first.response, clientDataJSON: Buffer.from(JSON.stringify({ ...clientData, challenge: replay.challenge })).toString('base64url') } };
    expect((await as('post', '/api/account/passkeys', cookie).send({ name: 'two', response: copy }).expect(409)).body).toEqual(errorBody(409, 'PASSKEY_EXISTS'));
    expect((await as('get', '/api/account/passkeys', cookie).expect(200)).body.data.map((p: { name: string }) => p.name)).toEqual(['one']);
  });

  it('should sign in with a passkey alone: a session as a password sign-in opens, the use recorded', async () => {
    const user = await createUser(t.app);
    const { authenticator, passkey } = await register(user);
    t.clock.advance(MINUTE);
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'panel.test', allowCredentials: [], userVerification: 'required', timeout: 5 * MINUTE });
    const res = await t.http().post('/api/auth/passkey').send({ response: authenticator.get(options) }).expect(200);
    expect(res.body).toEqual({
      data: {
        user: expect.objectContaining({ id: String(user.id), email: user.email, twoFactorEnabled: false }),
        session: { id: expect.any(String), expiresAt: expect.any(String) },
        twoFactorSetupRequired: false,
      },
    });
    const cookie = sessionCookie(res)!;
    expect((await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data.session).toMatchObject({ fresh: true });
    const listed = (await as('get', '/api/account/passkeys', cookie).expect(200)).body.data;
    expect(listed).toEqual([{ ...passkey, lastUsedAt: t.clock.now().toISOString() }]);
    // Its answer works once.
    expect((await t.http().post('/api/auth/passkey').send({ response: authenticator.get(options) }).expect(400)).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it('should refuse a sign-in from another origin or RP id, without user verification, with a counter gone back, or naming a credential the key is not', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await register(user);
    const victim = await register(await createUser(t.app));
    const refused = errorBody(401, 'PASSKEY_INVALID');
    expect((await signInWith(authenticator, { origin: 'https://evil.test' })).body).toEqual(refused);
    expect((await signInWith(authenticator, { rpId: 'evil.test' })).body).toEqual(refused);
    expect((await signInWith(authenticator, { userVerified: false })).body).toEqual(refused);
    // Another user's credential id with this key's signature.
    expect((await signInWith(authenticator, { credentialId: victim.authenticator.ids[0] })).body).toEqual(refused);
    expect((await signInWith(authenticator, { credentialId: 'bm90LWEtY3JlZGVudGlhbA' })).body).toEqual(refused);

    // Counter 5 is accepted; then 5 again, or 3 (a cloned authenticator), is not.
    expect((await signInWith(authenticator, { counter: 5 })).status).toBe(200);
    expect((await signInWith(authenticator, { counter: 5 })).body).toEqual(refused);
    expect((await signInWith(authenticator, { counter: 3 })).body).toEqual(refused);
    expect((await signInWith(authenticator, { counter: 6 })).status).toBe(200);
  });

  it('should refuse an expired or unknown challenge, and a suspended account', async () => {
    const user = await createUser(t.app);
    const { authenticator } = await register(user);
    const options = await signInOptions();
    t.clock.advance(5 * MINUTE + 1_000);
    expect((await t.http().post('/api/auth/passkey').send({ response: authenticator.get(options) }).expect(400)).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));
    expect((await signInWith(authenticator, { challenge: 'B'.repeat(43) })).body).toEqual(errorBody(400, 'PASSKEY_CHALLENGE_INVALID'));

    await t.app.get(UsersService).setColumns(user.id, { suspended: true });
    const res = await signInWith(authenticator);
    expect(res.body).toEqual(errorBody(403, 'ACCOUNT_SUSPENDED'));
    expect(sessionCookie(res)).toBeUndefined();
  });

  describe('as the second factor', () => {
    const passwordStep = async (user: UserEntity) => {
      const res = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401);
      return res.body;
    };
    const passkeyOptions = async (challenge: string) => (await t.http().post('/api/auth/two-factor/passkey-options').send({ challenge }).expect(200)).body.data.options;

    it('should ask a user with a passkey and no TOTP for the second step, and take the passkey for it once', async () => {
      const user = await createUser(t.app);
      const { authenticator } = await register(user);
      const required = await passwordStep(user);
      expect(required).toEqual({
        ...errorBody(401, 'TWO_FACTOR_REQUIRED'),
        details: { challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresInSeconds: 300, methods: ['passkey'] },
      });
      const { challenge } = required.details;
      // A code is wrong for this user (no TOTP), and counts an attempt.
      expect((await t.http().post('/api/auth/two-factor').send({ challenge, code: '123456' }).expect(401)).body).toEqual({
        ...errorBody(401, 'TWO_FACTOR_INVALID'),
        details: { attemptsLeft: 4 },
      });
      const options = await passkeyOptions(challenge);
      expect(options).toMatchObject({ rpId: 'panel.test', allowCredentials: [{ id: authenticator.ids[0], type: 'public-key', transports: ['internal'] }] });
      const res = await t.http().post('/api/auth/two-factor').send({ challenge, passkey: authenticator.get(options) }).expect(200);
      expect(res.body.data.user).toMatchObject({ id: String(user.id) });
      expect(sessionCookie(res)).toBeDefined();
      // The challenge is used.
      expect((await t.http().post('/api/auth/two-factor/passkey-options').send({ challenge }).expect(401)).body).toEqual(errorBody(401, 'TWO_FACTOR_CHALLENGE_INVALID'));
    });

    it('should list both methods, count a failed passkey as a wrong code, and refuse another user\'s passkey or a suspended account', async () => {
      const user = await createUser(t.app);
      const { authenticator } = await register(user);
      await t.app.get(UsersService).setColumns(user.id, { twoFactorEnabled: true });
      const { details } = await passwordStep(user);
      expect(details.methods).toEqual(['totp', 'passkey']);
      const options = await passkeyOptions(details.challenge);
      const wrongOrigin = authenticator.get(options, { origin: 'https://evil.test' });
      expect((await t.http().post('/api/auth/two-factor').send({ challenge: details.challenge, passkey: wrongOrigin }).expect(401)).body).toEqual({
        ...errorBody(401, 'TWO_FACTOR_INVALID'),
        details: { attemptsLeft: 4 },
      });
      // Another user's passkey, on options for this challenge: refused as well.
      const other = await register(await createUser(t.app));
      const foreign = other.authenticator.get({ ...(await passkeyOptions(details.challenge)), allowCredentials: [] });
      expect((await t.http().post('/api/auth/two-factor').send({ challenge: details.challenge, passkey: foreign }).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');
      // A sign-in passkey challenge is not a second-factor one.
      const signInAnswer = authenticator.get(await signInOptions());
      expect((await t.http().post('/api/auth/two-factor').send({ challenge: details.challenge, passkey: signInAnswer }).expect(400)).body).toEqual(
        errorBody(400, 'PASSKEY_CHALLENGE_INVALID'),
      );

      await t.app.get(UsersService).setColumns(user.id, { suspended: true });
      const good = authenticator.get(await passkeyOptions(details.challenge));
      expect((await t.http().post('/api/auth/two-factor').send({ challenge: details.challenge, passkey: good }).expect(403)).body).toEqual(errorBody(403, 'ACCOUNT_SUSPENDED'));
    });

    it('should take either a code or a passkey, not both, and 409 PASSKEY_NONE for options of a user without one', async () => {
      const user = await createUser(t.app);
      await t.app.get(UsersService).setColumns(user.id, { twoFactorEnabled: true });
      const { details } = await passwordStep(user);
      expect(details.methods).toEqual(['totp']);
      expect((await t.http().post('/api/auth/two-factor/passkey-options').send({ challenge: details.challenge }).expect(409)).body).toEqual(errorBody(409, 'PASSKEY_NONE'));
      const both = await t.http().post('/api/auth/two-factor').send({ challenge: details.challenge, code: '123456', passkey: { id: 'x' } }).expect(400);
      expect(both.body.code).toBe('VALIDATION_FAILED');
      expect(both.body.details).toEqual(expect.arrayContaining([{ field: 'code', message: 'give either code or passkey, not both' }]));
    });
  });

  it('should have an administrator\'s two-factor reset remove the passkeys too (a lost device holds them)', async () => {
    const admin = await createUser(t.app, { admin: true });
    const adminCookie = await signIn(t, admin.email);
    const user = await createUser(t.app);
    const { cookie, authenticator } = await register(user);
    const res = await as('delete', `/api/admin/users/${user.id}/two-factor`, adminCookie).expect(200);
    expect(res.body.data).toMatchObject({ id: String(user.id), twoFactorEnabled: false });
    expect(await account(cookie)).toMatchObject({ hasPasskey: false });
    expect((await as('get', '/api/account/passkeys', cookie).expect(200)).body.data).toEqual([]);
    expect((await signInWith(authenticator)).body.code).toBe('PASSKEY_INVALID');
    // The password alone signs in again.
    await signIn(t, user.email);
    const audit = (await as('get', `/api/admin/audit-logs?action=user.two_factor_reset&targetId=${user.id}`, adminCookie).expect(200)).body.data;
    expect(audit[0].changes).toEqual({ before: { hasPasskey: true }, after: { hasPasskey: false } });
    await as('delete', `/api/admin/users/${user.id}/two-factor`, adminCookie).expect(409);
  });

  it('should count as the second factor the two-factor policy asks for: a held user adds one and is held no more', async () => {
    const admin = await createUser(t.app, { admin: true });
    const actor = { userId: admin.id, username: admin.username, email: admin.email, via: 'test', ip: null };
    await t.app.get(PanelSettings).update({ twoFactorPolicy: 'all' }, actor);
    try {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      expect((await as('get', '/api/account/api-keys', cookie).expect(403)).body).toEqual(errorBody(403, 'TWO_FACTOR_SETUP_REQUIRED'));
      expect((await as('get', '/api/account/passkeys', cookie).expect(200)).body).toEqual({ data: [] });
      const options = (await as('post', '/api/account/passkeys/options', cookie).expect(200)).body.data.options;
      await as('post', '/api/account/passkeys', cookie).send({ name: 'Phone', response: new SoftAuthenticator(TEST_ORIGIN).create(options) }).expect(201);
      // The same session (its cached user row included) is let through at once.
      await as('get', '/api/account/api-keys', cookie).expect(200);
      expect((await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data.twoFactorSetupRequired).toBe(false);
    } finally {
      await t.app.get(PanelSettings).update({ twoFactorPolicy: 'none' }, actor);
    }
  });

  it('should need a signed-in session (keys 403, anonymous 401), a fresh one to add or remove, and validate bodies', async () => {
    const user = await createUser(t.app);
    const { cookie, passkey } = await register(user);
    const key = await createApiKey(t, cookie);
    await t.http().get('/api/account/passkeys').expect(401);
    expect((await t.http().get('/api/account/passkeys').set('Authorization', `Bearer ${key}`).expect(403)).body.code).toBe('SESSION_REQUIRED');
    t.clock.advance(10 * MINUTE);
    expect((await as('post', '/api/account/passkeys/options', cookie).expect(403)).body.code).toBe('SESSION_NOT_FRESH');
    expect((await as('delete', `/api/account/passkeys/${passkey.id}`, cookie).expect(403)).body.code).toBe('SESSION_NOT_FRESH');
    await as('patch', `/api/account/passkeys/${passkey.id}`, cookie).send({ name: 'Still here' }).expect(200);
    expect((await as('patch', `/api/account/passkeys/${passkey.id}`, cookie).send({ name: '   ' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await as('patch', '/api/account/passkeys/abc', cookie).send({ name: 'x' }).expect(404)).body.code).toBe('PASSKEY_NOT_FOUND');
    // Another user's passkey is not found.
    const other = await signIn(t, (await createUser(t.app)).email);
    expect((await as('patch', `/api/account/passkeys/${passkey.id}`, other).send({ name: 'mine' }).expect(404)).body.code).toBe('PASSKEY_NOT_FOUND');
    const bad = await as('post', '/api/account/passkeys', cookie).send({ name: 'x', response: { id: 'not base64!', type: 'other' } }).expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await t.http().post('/api/auth/passkey').send({ response: 'nope' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
  });
});
