import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { ForgingIssuer, OidcIssuer } from 'test/utils/oidc-issuer';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });
const pathOf = (url: string): string => {
  const u = new URL(url, TEST_ORIGIN);
  return u.pathname + u.search + u.hash;
};
const flowCookie = (res: Response): string => {
  const raw = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const cookie = raw.find((c) => c.startsWith('hatchery_oauth='));
  if (!cookie) {
    throw new Error('no flow cookie');
  }
  return cookie.split(';')[0];
};
let seq = 0;
const unique = (): string => `${Date.now().toString(36)}${(seq++).toString(36)}`;

describe.each(dbKinds(['postgres']))('single sign-on (%s)', (db) => {
  let t: TestApp;
  let issuer: OidcIssuer;
  let forging: ForgingIssuer;
  let sink: SmtpSink;
  let adminCookie: string;
  const ids = { open: '', closed: '', corp: '', forged: '' };

  const admin = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => t.http()[method](path).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN);
  const oidcBody = (over: Record<string, unknown> = {}) => ({ name: 'Test IdP', type: 'oidc', issuer: issuer.issuer, clientId: issuer.clientId, clientSecret: issuer.clientSecret, ...over });

  /** The start: where the panel sends the browser, and the flow cookie it set. */
  const begin = async (id: string, cookie = '', query = '') => {
    const res = await t.http().get(`/api/auth/oauth/${id}${query}`).set('Cookie', cookie).expect(302);
    return { location: res.headers.location, flow: flowCookie(res) };
  };
  const callback = (url: string, cookie: string) => t.http().get(pathOf(url)).set('Cookie', cookie).expect(302);
  /** A whole sign-in as `sub` at the issuer: the panel's final redirect. */
  const signInAs = async (id: string, sub: string, extraCookie = '', query = ''): Promise<Response> => {
    const { location, flow } = await begin(id, extraCookie, query);
    const back = await issuer.authorize(location, sub);
    return callback(back, [flow, extraCookie].filter(Boolean).join('; '));
  };
  const account = (claims: { email: string; email_verified?: boolean; preferred_username?: string }): string => {
    const sub = `sub-${unique()}`;
    issuer.accounts.set(sub, { email_verified: true, name: 'Someone', ...claims });
    return sub;
  };
  const identities = async (cookie: string) => (await t.http().get('/api/account/identities').set('Cookie', cookie).expect(200)).body.data;

  beforeAll(async () => {
    issuer = await OidcIssuer.start();
    forging = await ForgingIssuer.start();
    sink = await SmtpSink.start();
    t = await createTestApp({ db, env: { SMTP_URL: sink.url, MAIL_FROM: 'panel@example.test' }, overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }] });
    const root = await createUser(t.app, { admin: true });
    adminCookie = await signIn(t, root.email);
    ids.open = (await admin('post', '/api/admin/auth-providers').send(oidcBody({ name: 'Open', allowRegistration: true })).expect(201)).body.data.id;
    ids.closed = (await admin('post', '/api/admin/auth-providers').send(oidcBody({ name: 'Closed', showOnSignIn: false })).expect(201)).body.data.id;
    ids.corp = (await admin('post', '/api/admin/auth-providers').send(oidcBody({ name: 'Corp', allowRegistration: true, allowedDomains: ['Corp.Test'] })).expect(201)).body.data.id;
    ids.forged = (
      await admin('post', '/api/admin/auth-providers').send({ name: 'Forged', type: 'oidc', issuer: forging.issuer, clientId: forging.clientId, clientSecret: 'forged-secret', allowRegistration: true }).expect(201)
    ).body.data.id;
    issuer.setRedirectUris(Object.values(ids).map((id) => `${TEST_ORIGIN}/api/auth/oauth/${id}/callback`));
  });

  afterAll(async () => {
    await t?.close();
    await issuer?.close();
    await forging?.close();
    await sink?.close();
  });

  describe('administration', () => {
    it('should keep a provider with its secret sealed and never answered, nor audited', async () => {
      const secret = `very-secret-${unique()}`;
      const created = (await admin('post', '/api/admin/auth-providers').send(oidcBody({ name: 'Audited', clientSecret: secret })).expect(201)).body.data;
      expect(created).toEqual({
        id: expect.any(String),
        name: 'Audited',
        type: 'oidc',
        issuer: issuer.issuer,
        clientId: issuer.clientId,
        clientSecretSet: true,
        scopes: ['openid', 'email', 'profile'],
        enabled: true,
        showOnSignIn: true,
        allowRegistration: false,
        allowedDomains: [],
        redirectUri: `${TEST_ORIGIN}/api/auth/oauth/${created.id}/callback`,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const rotated = `rotated-${unique()}`;
      const updated = (await admin('patch', `/api/admin/auth-providers/${created.id}`).send({ name: 'Audited 2', clientSecret: rotated }).expect(200)).body.data;
      expect(updated.name).toBe('Audited 2');
      const listed = await admin('get', '/api/admin/auth-providers').expect(200);
      const viewed = await admin('get', `/api/admin/auth-providers/${created.id}`).expect(200);
      await admin('delete', `/api/admin/auth-providers/${created.id}`).expect(204);
      await admin('get', `/api/admin/auth-providers/${created.id}`).expect(404);
      const audit = await admin('get', `/api/admin/audit-logs?targetType=auth_provider&targetId=${created.id}`).expect(200);
      expect(audit.body.data.map((e: { action: string }) => e.action).sort()).toEqual(['auth_provider.created', 'auth_provider.deleted', 'auth_provider.updated']);
      for (const text of [listed.text, viewed.text, audit.text, JSON.stringify(created), JSON.stringify(updated)]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(rotated);
      }
    });

    it('should fill presets and refuse an issuer discovery does not accept', async () => {
      const github = (await admin('post', '/api/admin/auth-providers').send({ name: 'GitHub', type: 'github', clientId: 'gh', clientSecret: 's' }).expect(201)).body.data;
      expect(github).toMatchObject({ type: 'github', issuer: 'https://github.com', scopes: ['read:user', 'user:email'] });
      await admin('delete', `/api/admin/auth-providers/${github.id}`).expect(204);
      expect((await admin('post', '/api/admin/auth-providers').send(oidcBody({ issuer: `${issuer.issuer}/elsewhere` }))).body).toEqual(errorBody(400, 'AUTH_PROVIDER_DISCOVERY_FAILED'));
      expect((await admin('post', '/api/admin/auth-providers').send(oidcBody({ issuer: undefined }))).body).toEqual(errorBody(400, 'AUTH_PROVIDER_ISSUER_REQUIRED'));
      expect((await admin('post', '/api/admin/auth-providers').send(oidcBody({ type: 'saml' }))).body.code).toBe('VALIDATION_FAILED');
      expect((await admin('post', '/api/admin/auth-providers').send(oidcBody({ allowedDomains: ['not a domain'] }))).body.code).toBe('VALIDATION_FAILED');
      expect((await admin('patch', `/api/admin/auth-providers/${ids.open}`).send({ issuer: 'https://127.0.0.1:1/none' })).body.code).toBe('AUTH_PROVIDER_DISCOVERY_FAILED');
    });

    it('should answer only administrators, and an admin key only within the settings scopes', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      expect((await t.http().get('/api/admin/auth-providers').set('Cookie', cookie)).status).toBe(403);
      await t.http().get('/api/admin/auth-providers').expect(401);
      const withKey = async (permissions: string[]) => {
        const key = await createApiKey(t, adminCookie, { permissions });
        return (method: 'get' | 'patch', path: string) => t.http()[method](path).set('Authorization', `Bearer ${key}`);
      };
      const other = await withKey(['servers.read']);
      expect((await other('get', '/api/admin/auth-providers')).status).toBe(403);
      const reader = await withKey(['settings.read']);
      await reader('get', '/api/admin/auth-providers').expect(200);
      expect((await reader('patch', `/api/admin/auth-providers/${ids.open}`).send({ name: 'x' })).status).toBe(403);
    });

    it('should list on the sign-in page only enabled providers meant to be shown', async () => {
      const shown = (await t.http().get('/api/auth/providers').expect(200)).body.data;
      expect(shown).toEqual(expect.arrayContaining([{ id: ids.open, name: 'Open', type: 'oidc' }]));
      expect(shown.map((p: { id: string }) => p.id)).not.toContain(ids.closed);
    });
  });

  describe('sign-in', () => {
    it('should create an account when the provider may, then sign the same account in', async () => {
      const name = `alice${unique()}`;
      const sub = account({ email: `${name}@example.test`, preferred_username: name });
      const first = await signInAs(ids.open, sub);
      expect(first.headers.location).toBe('/');
      const cookie = sessionCookie(first)!;
      const session = (await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data;
      expect(session.user).toMatchObject({ username: name, email: `${name}@example.test` });
      expect(await identities(cookie)).toEqual([
        { id: expect.any(String), provider: { id: ids.open, name: 'Open', type: 'oidc' }, email: `${name}@example.test`, createdAt: expect.any(String), lastUsedAt: expect.any(String) },
      ]);
      const again = await signInAs(ids.open, sub, '', '?returnTo=/account');
      expect(again.headers.location).toBe('/account');
      const second = (await t.http().get('/api/auth/session').set('Cookie', sessionCookie(again)!).expect(200)).body.data;
      expect(second.user.id).toBe(session.user.id);
      // Its only way in, without a password: not unlinked.
      const [identity] = await identities(cookie);
      expect((await t.http().delete(`/api/account/identities/${identity.id}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN)).body).toEqual(errorBody(409, 'IDENTITY_LAST_SIGN_IN_METHOD'));
    });

    it('should let an account made by signing on choose a password by an e-mailed link, then sign in with it too', async () => {
      const name = `pat${unique()}`;
      const email = `${name}@example.test`;
      const cookie = sessionCookie(await signInAs(ids.open, account({ email, preferred_username: name })))!;
      const me = async (c: string) => (await t.http().get('/api/account').set('Cookie', c).expect(200)).body.data;
      expect(await me(cookie)).toMatchObject({ email, hasPassword: false });
      const link = () => t.http().post('/api/account/password/link').set('Cookie', cookie).set('Origin', TEST_ORIGIN);
      expect((await link().expect(200)).body.data).toEqual({ sent: true, reason: null, email });
      const [mail] = sink.to(email);
      expect(mail.subject).toBe('Choose a password for your Hatchery account');
      const token = /\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await t.http().post('/api/auth/reset-password').send({ token, newPassword: 'a-password-of-pat-1' }).expect(204);
      // Choosing it signed the account out everywhere; the password signs it in, and the link is no more to be had.
      await t.http().get('/api/account').set('Cookie', cookie).expect(401);
      const withPassword = await signIn(t, email, 'a-password-of-pat-1');
      expect(await me(withPassword)).toMatchObject({ email, hasPassword: true });
      expect((await t.http().post('/api/account/password/link').set('Cookie', withPassword).set('Origin', TEST_ORIGIN).expect(409)).body).toEqual(errorBody(409, 'PASSWORD_ALREADY_SET'));
      expect((await t.http().post('/api/account/password/link').set('Cookie', adminCookie).set('Origin', TEST_ORIGIN).expect(409)).body).toEqual(errorBody(409, 'PASSWORD_ALREADY_SET'));
      // A key, even the account's own, cannot ask (session-only, as changing the password is).
      const key = await createApiKey(t, withPassword);
      expect((await t.http().post('/api/account/password/link').set('Authorization', `Bearer ${key}`).expect(403)).body).toEqual(errorBody(403, 'SESSION_REQUIRED'));
      // One link mailed in all (the refusals mail none). The password-changed notice the reset sends goes out in
      // the background and may or may not have arrived by now: it is not counted.
      expect(sink.to(email).filter((m) => m.subject === 'Choose a password for your Hatchery account')).toHaveLength(1);
    });

    it('should land only on a path of the panel after signing in', async () => {
      for (const returnTo of ['//evil.example', '/\\evil.example', '/\t/evil.example', 'https://evil.example']) {
        const res = await t.http().get(`/api/auth/oauth/${ids.open}`).query({ returnTo }).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
    });

    it('should refuse an unknown identity where the provider may not create accounts', async () => {
      const res = await signInAs(ids.closed, account({ email: `bob${unique()}@example.test` }));
      expect(res.headers.location).toBe('/auth/login?error=OAUTH_REGISTRATION_NOT_ALLOWED');
      expect(sessionCookie(res)).toBeUndefined();
    });

    it('should never link by a matching e-mail address alone', async () => {
      const user = await createUser(t.app);
      const res = await signInAs(ids.open, account({ email: user.email }));
      expect(res.headers.location).toBe('/auth/login?error=OAUTH_ACCOUNT_EXISTS');
      expect(sessionCookie(res)).toBeUndefined();
      expect(await identities(await signIn(t, user.email))).toEqual([]);
    });

    it('should refuse an e-mail the provider did not verify', async () => {
      const res = await signInAs(ids.open, account({ email: `unverified${unique()}@example.test`, email_verified: false }));
      expect(res.headers.location).toBe('/auth/login?error=OAUTH_EMAIL_NOT_VERIFIED');
    });

    it('should refuse a domain that is not allowed, and create an account in one that is', async () => {
      const out = await signInAs(ids.corp, account({ email: `carol${unique()}@example.test` }));
      expect(out.headers.location).toBe('/auth/login?error=OAUTH_DOMAIN_NOT_ALLOWED');
      const inside = await signInAs(ids.corp, account({ email: `carol${unique()}@corp.test` }));
      expect(inside.headers.location).toBe('/');
      expect(sessionCookie(inside)).toBeDefined();
    });

    it('should refuse a wrong state, or a callback without the flow cookie of its start', async () => {
      const { location, flow } = await begin(ids.open);
      const back = new URL(await issuer.authorize(location, account({ email: `dave${unique()}@example.test` })));
      const state = back.searchParams.get('state')!;
      back.searchParams.set('state', `${state}x`);
      expect((await callback(back.href, flow)).headers.location).toBe('/auth/login?error=OAUTH_STATE_MISMATCH');
      back.searchParams.set('state', state);
      expect((await callback(back.href, '')).headers.location).toBe('/auth/login?error=OAUTH_STATE_MISMATCH');
      // Another browser's flow (its own state) cannot carry this answer either.
      const other = await begin(ids.open);
      expect((await callback(back.href, other.flow)).headers.location).toBe('/auth/login?error=OAUTH_STATE_MISMATCH');
    });

    it.each([
      ['nonce', (c: Record<string, unknown>) => ({ ...c, nonce: 'another-nonce' })],
      ['issuer', (c: Record<string, unknown>) => ({ ...c, iss: issuer.issuer })],
      ['audience', (c: Record<string, unknown>) => ({ ...c, aud: 'another-client' })],
    ])('should refuse an ID token with a wrong %s', async (_what, forge) => {
      forging.forge = forge;
      const { location, flow } = await begin(ids.forged);
      const back = (await fetch(location, { redirect: 'manual' })).headers.get('location')!;
      const res = await callback(back, flow);
      expect(res.headers.location).toBe('/auth/login?error=OAUTH_TOKEN_INVALID');
      expect(sessionCookie(res)).toBeUndefined();
    });

    it('should accept the forging issuer’s honest token (so the refusals above are about the claim)', async () => {
      forging.forge = (c) => c;
      const { location, flow } = await begin(ids.forged);
      const back = (await fetch(location, { redirect: 'manual' })).headers.get('location')!;
      expect((await callback(back, flow)).headers.location).toBe('/');
    });

    it('should refuse a disabled provider at the start and at the callback', async () => {
      const sub = account({ email: `erin${unique()}@example.test` });
      const { location, flow } = await begin(ids.open);
      const back = await issuer.authorize(location, sub);
      await admin('patch', `/api/admin/auth-providers/${ids.open}`).send({ enabled: false }).expect(200);
      try {
        expect((await callback(back, flow)).headers.location).toBe('/auth/login?error=OAUTH_PROVIDER_DISABLED');
        const start = await t.http().get(`/api/auth/oauth/${ids.open}`).expect(302);
        expect(start.headers.location).toBe('/auth/login?error=OAUTH_PROVIDER_DISABLED');
        expect((await t.http().get('/api/auth/providers').expect(200)).body.data.map((p: { id: string }) => p.id)).not.toContain(ids.open);
      } finally {
        await admin('patch', `/api/admin/auth-providers/${ids.open}`).send({ enabled: true }).expect(200);
      }
    });
  });

  describe('linking', () => {
    it('should link from the account’s own session, sign in with it, and unlink', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      const sub = account({ email: `other-address-${unique()}@example.test` });
      const linked = await signInAs(ids.closed, sub, cookie, '?link=true');
      expect(linked.headers.location).toBe(`/account?linked=${ids.closed}`);
      const [identity] = await identities(cookie);
      expect(identity.provider.id).toBe(ids.closed);
      // The provider may not create accounts, but it signs in the account it is linked to.
      const res = await signInAs(ids.closed, sub);
      expect((await t.http().get('/api/auth/session').set('Cookie', sessionCookie(res)!).expect(200)).body.data.user.id).toBe(user.id);
      // Another account cannot take the same identity.
      const other = await signIn(t, (await createUser(t.app)).email);
      expect((await signInAs(ids.closed, sub, other, '?link=true')).headers.location).toBe('/account?error=OAUTH_IDENTITY_IN_USE');
      await t.http().delete(`/api/account/identities/${identity.id}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
      expect(await identities(cookie)).toEqual([]);
      expect((await signInAs(ids.closed, sub)).headers.location).toBe('/auth/login?error=OAUTH_REGISTRATION_NOT_ALLOWED');
      const audit = await admin('get', `/api/admin/audit-logs?targetType=user&targetId=${user.id}`).expect(200);
      expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['user.identity_linked', 'user.identity_unlinked']));
    });

    it('should not link without a session, nor when the callback comes with another account’s session', async () => {
      const start = await t.http().get(`/api/auth/oauth/${ids.closed}?link=true`).expect(302);
      expect(start.headers.location).toBe('/account?error=OAUTH_LINK_SESSION_MISMATCH');
      const first = await signIn(t, (await createUser(t.app)).email);
      const second = await signIn(t, (await createUser(t.app)).email);
      const { location, flow } = await begin(ids.closed, first, '?link=true');
      const back = await issuer.authorize(location, account({ email: `frank${unique()}@example.test` }));
      expect((await callback(back, `${flow}; ${second}`)).headers.location).toBe('/account?error=OAUTH_LINK_SESSION_MISMATCH');
    });

    it('should link only from a session signed in within five minutes, as a password change asks', async () => {
      const user = await createUser(t.app);
      const stale = await signIn(t, user.email);
      t.clock.advance(5 * 60_000 + 1_000);
      const start = await t.http().get(`/api/auth/oauth/${ids.closed}?link=true`).set('Cookie', stale).expect(302);
      expect(start.headers.location).toBe('/account?error=SESSION_NOT_FRESH');
      expect(((start.headers['set-cookie'] as unknown as string[] | undefined) ?? []).filter((c) => c.startsWith('hatchery_oauth=') && !c.startsWith('hatchery_oauth=;'))).toEqual([]);
      // Signed in again (the account page's "confirm it is you"), the same account links.
      const fresh = await signIn(t, user.email);
      const linked = await signInAs(ids.closed, account({ email: `grace${unique()}@example.test` }), fresh, '?link=true');
      expect(linked.headers.location).toBe(`/account?linked=${ids.closed}`);
      expect(await identities(fresh)).toHaveLength(1);
    });
  });

  it('should send a user with two-factor sign-in to its code step, not sign it in', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const post = (path: string) => t.http().post(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
    const { secret } = (await post('/api/user/2fa/setup').expect(200)).body.data;
    const code = () => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now().getTime() });
    await post('/api/user/2fa/enable').send({ code: code() }).expect(200);
    const sub = account({ email: `grace${unique()}@example.test` });
    await signInAs(ids.closed, sub, cookie, '?link=true');
    const res = await signInAs(ids.closed, sub);
    expect(sessionCookie(res)).toBeUndefined();
    const match = /^\/auth\/login#challenge=(.+)$/.exec(res.headers.location);
    expect(match).not.toBeNull();
    t.clock.advance(30_000);
    const done = await t.http().post('/api/auth/two-factor').send({ challenge: decodeURIComponent(match![1]), code: code() }).expect(200);
    expect(done.body.data.user.id).toBe(user.id);
  });
});
