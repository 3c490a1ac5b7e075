import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { ChangeFeed } from 'src/common/hot-cache/change-feed';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { createPterodactylKey, PTERODACTYL_ACCEPT, pterodactylError } from 'test/utils/pterodactyl';
import { dbKinds } from 'test/utils/test-db';

const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });
const HELD = errorBody(403, 'TWO_FACTOR_SETUP_REQUIRED');
const PTERODACTYL_HELD = pterodactylError(400, 'TwoFactorAuthRequiredException', 'Two-factor authentication is required on this account in order to access this endpoint.');

describe.each(dbKinds(['postgres', 'pglite']))('two-factor policy (%s)', (db) => {
  let t: TestApp;
  let root: { user: UserEntity; cookie: string };

  const get = (path: string, cookie: string) => t.http().get(path).set('Cookie', cookie);
  const send = (method: 'post' | 'patch', path: string, cookie: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const setPolicy = async (twoFactorPolicy: string) => {
    const res = await send('patch', '/api/admin/settings', root.cookie).send({ twoFactorPolicy }).expect(200);
    expect(res.body.data).toEqual({ twoFactorPolicy });
  };
  const bearer = (path: string, key: string) => t.http().get(path).set('Authorization', `Bearer ${key}`);

  /** Sets up and enables an authenticator app through the API, as a user the policy holds would. */
  const enableTotp = async (cookie: string): Promise<void> => {
    const { secret } = (await send('post', '/api/user/2fa/setup', cookie).expect(200)).body.data;
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    await send('post', '/api/user/2fa/enable', cookie).send({ code }).expect(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ db });
    const user = await createUser(t.app, { admin: true });
    root = { user, cookie: await signIn(t, user.email) };
    // So that no policy holds the administrator changing it.
    await enableTotp(root.cookie);
  });

  afterEach(async () => {
    await t.app.get(PanelSettings).update({ twoFactorPolicy: 'none' }, { userId: root.user.id, username: 'test', email: 'test', via: 'test', ip: null });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should read and change the policy, audit the change, and refuse a bad value without changing anything', async () => {
    expect((await get('/api/admin/settings', root.cookie).expect(200)).body.data).toEqual({ twoFactorPolicy: 'none' });
    const bad = await send('patch', '/api/admin/settings', root.cookie).send({ twoFactorPolicy: 'everyone' }).expect(400);
    expect(bad.body).toEqual({ ...errorBody(400, 'VALIDATION_FAILED'), details: [expect.objectContaining({ field: 'twoFactorPolicy' })] });
    await send('patch', '/api/admin/settings', root.cookie).send({ twoFactorPolicy: 'none', extra: 1 }).expect(400);
    expect((await get('/api/admin/settings', root.cookie).expect(200)).body.data).toEqual({ twoFactorPolicy: 'none' });

    await setPolicy('all');
    await setPolicy('all'); // no change: no second audit entry
    expect((await get('/api/admin/settings', root.cookie).expect(200)).body.data).toEqual({ twoFactorPolicy: 'all' });
    const audit = await get('/api/admin/audit-logs?action=settings.updated', root.cookie).expect(200);
    expect(audit.body.data).toEqual([
      expect.objectContaining({ action: 'settings.updated', target: expect.objectContaining({ type: 'settings', id: 'panel' }), changes: { before: { twoFactorPolicy: 'none' }, after: { twoFactorPolicy: 'all' } } }),
    ]);
  });

  it('should let only administrators, and keys with the settings scopes, reach the settings', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    expect((await get('/api/admin/settings', cookie).expect(403)).body).toEqual(errorBody(403, 'ADMIN_REQUIRED'));
    await send('patch', '/api/admin/settings', cookie).send({ twoFactorPolicy: 'all' }).expect(403);

    const admin = await createUser(t.app, { admin: true });
    const adminCookie = await signIn(t, admin.email);
    const readOnly = await createApiKey(t, adminCookie, { permissions: ['settings.read'] });
    const none = await createApiKey(t, adminCookie, { permissions: ['servers.read'] });
    await bearer('/api/admin/settings', readOnly).expect(200);
    expect((await bearer('/api/admin/settings', none).expect(403)).body).toEqual(errorBody(403, 'MISSING_SCOPE'));
    const write = await t.http().patch('/api/admin/settings').set('Authorization', `Bearer ${readOnly}`).send({ twoFactorPolicy: 'all' }).expect(403);
    expect(write.body).toEqual(errorBody(403, 'MISSING_SCOPE'));
    expect(t.app.get(PanelSettings).current().twoFactorPolicy).toBe('none');
  });

  it('should hold an administrator without a second factor at setup, keys included, and open everything once one is set up', async () => {
    const admin = await createUser(t.app, { admin: true });
    const user = await createUser(t.app);
    const cookie = await signIn(t, admin.email);
    const userCookie = await signIn(t, user.email);
    const key = await createApiKey(t, cookie);
    const application = await createPterodactylKey(t, cookie, 'application', { permissions: { servers: 1 } });
    const client = await createPterodactylKey(t, cookie, 'client');
    await setPolicy('admins');

    // The session: only what setting up a second factor needs.
    const session = await get('/api/auth/session', cookie).expect(200);
    expect(session.body.data.twoFactorSetupRequired).toBe(true);
    await get('/api/account', cookie).expect(200);
    expect((await get('/api/client/servers', cookie).expect(403)).body).toEqual(HELD);
    expect((await get('/api/admin/users', cookie).expect(403)).body).toEqual(HELD);
    expect((await get('/api/account/sessions', cookie).expect(403)).body).toEqual(HELD);
    expect((await send('post', '/api/account/api-keys', cookie).send({ name: 'new' }).expect(403)).body).toEqual(HELD);
    // A new sign-in says so too, for the web UI to go straight to the setup.
    const signedIn = await t.http().post('/api/auth/sign-in/email').send({ email: admin.email, password: 'correct horse battery staple' }).expect(200);
    expect(signedIn.body.data.twoFactorSetupRequired).toBe(true);

    // Its keys: every kind refused, even on the routes its session may use.
    expect((await bearer('/api/account', key).expect(403)).body).toEqual(HELD);
    expect((await bearer('/api/client/servers', key).expect(403)).body).toEqual(HELD);
    const pterodactyl = (path: string, secret: string) => t.http().get(path).set('Authorization', `Bearer ${secret}`).set('Accept', PTERODACTYL_ACCEPT);
    expect((await pterodactyl('/api/application/servers', application.key).expect(400)).body).toEqual(PTERODACTYL_HELD);
    expect((await pterodactyl('/api/client', client.key).expect(400)).body).toEqual(PTERODACTYL_HELD);

    // The policy covers administrators only.
    expect((await get('/api/auth/session', userCookie).expect(200)).body.data.twoFactorSetupRequired).toBe(false);
    await get('/api/client/servers', userCookie).expect(200);

    await enableTotp(cookie);
    expect((await get('/api/auth/session', cookie).expect(200)).body.data.twoFactorSetupRequired).toBe(false);
    await get('/api/client/servers', cookie).expect(200);
    await get('/api/admin/users', cookie).expect(200);
    await bearer('/api/client/servers', key).expect(200);
    await pterodactyl('/api/application/servers', application.key).expect(200);
    await pterodactyl('/api/client', client.key).expect(200);
  });

  it('should hold every user without a second factor under "all", and none under "none"', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const key = await createApiKey(t, cookie);
    await setPolicy('all');
    expect((await get('/api/client/servers', cookie).expect(403)).body).toEqual(HELD);
    expect((await bearer('/api/client/servers', key).expect(403)).body).toEqual(HELD);
    await get('/api/client/servers', root.cookie).expect(200);
    await setPolicy('none');
    await get('/api/client/servers', cookie).expect(200);
    await bearer('/api/client/servers', key).expect(200);
  });

  if (db === 'postgres') {
    it('should follow a change another process makes, through the change feed', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      // Another panel process's write, as SQL from outside this one.
      await t.app.get(DataSource).query(`INSERT INTO panel_setting (key, value, updated_at) VALUES ('twoFactorPolicy', '"all"', now())
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`);
      await t.app.get(ChangeFeed).caughtUp();
      await t.app.get(PanelSettings).settled();
      expect((await get('/api/client/servers', cookie).expect(403)).body).toEqual(HELD);
    });
  }
});
