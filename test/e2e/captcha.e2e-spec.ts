import type { Response } from 'supertest';
import type { CaptchaProvider } from 'src/config/env.schema';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { sessionCookie } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { FakeCaptchaMode, FakeCaptchaServer } from 'test/utils/fake-captcha';
import { freePort } from 'test/utils/free-port';
import { LogCapture } from 'test/utils/log-capture';
import { dbKinds } from 'test/utils/test-db';

const SECRET = 'captcha-secret-key-never-logged-7c1f';
const HEADER = 'x-captcha-response';

const errorBody = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });
const REQUIRED = errorBody(400, 'CAPTCHA_REQUIRED', 'A CAPTCHA response is required in the x-captcha-response header');
const INVALID = errorBody(403, 'CAPTCHA_INVALID', 'CAPTCHA verification failed');
const UNAVAILABLE = errorBody(503, 'CAPTCHA_UNAVAILABLE', 'The CAPTCHA could not be verified right now; try again later');

const captchaEnv = (provider: CaptchaProvider, verifyUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  CAPTCHA_PROVIDER: provider,
  CAPTCHA_SITE_KEY: `${provider}-site-key`,
  CAPTCHA_SECRET_KEY: SECRET,
  CAPTCHA_VERIFY_URL: verifyUrl,
  // Short, so the test of a provider that never answers ends quickly; production uses 5 s.
  CAPTCHA_TIMEOUT_MS: '500',
  ...extra,
});

const expectNoSession = (res: Response): void => expect(sessionCookie(res)).toBeUndefined();

describe.each(dbKinds(['postgres']))('CAPTCHA (%s)', (db) => {
  describe.each(['turnstile', 'hcaptcha', 'recaptcha'] as const)('with %s', (provider) => {
    let fake: FakeCaptchaServer;
    let t: TestApp;
    const logs = new LogCapture();
    const tokensSeen: string[] = [];

    const signInWith = (email: string, token?: string, password = DEFAULT_PASSWORD) => {
      const req = t.http().post('/api/auth/sign-in/email');
      if (token !== undefined) {
        tokensSeen.push(token);
        req.set(HEADER, token);
      }
      return req.send({ email, password });
    };

    beforeAll(async () => {
      fake = await FakeCaptchaServer.start(provider, SECRET);
      t = await createTestApp({ db, logStream: logs, env: captchaEnv(provider, fake.url, { REGISTRATION_ENABLED: 'true' }) });
    });

    beforeEach(() => fake.reset());

    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    it('should sign in with a token the provider passes, sending it the secret, the token and the client address', async () => {
      const user = await createUser(t.app);
      const token = fake.pass();
      const res = await signInWith(user.email, token).expect(200);
      expect(sessionCookie(res)).toBeDefined();
      expect(fake.requests).toEqual([
        {
          method: 'POST',
          contentType: 'application/x-www-form-urlencoded',
          form: { secret: SECRET, response: token, remoteip: expect.stringMatching(/127\.0\.0\.1$/) },
        },
      ]);
    });

    it('should answer 400 CAPTCHA_REQUIRED without the header, before the credentials are looked at and without asking the provider', async () => {
      const user = await createUser(t.app);
      const right = await signInWith(user.email).expect(400);
      const wrongPassword = await signInWith(user.email, undefined, 'not the password').expect(400);
      const blank = await t.http().post('/api/auth/sign-in/email').set(HEADER, '   ').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(400);
      for (const res of [right, wrongPassword, blank]) {
        expect(res.body).toEqual(REQUIRED);
        expectNoSession(res);
      }
      expect(fake.requests).toEqual([]);
    });

    it('should answer 403 CAPTCHA_INVALID for a token the provider fails, and make no session', async () => {
      const user = await createUser(t.app);
      const res = await signInWith(user.email, 'a-token-nobody-issued').expect(403);
      expect(res.body).toEqual(INVALID);
      expectNoSession(res);
      expect(fake.requests).toHaveLength(1);
    });

    it('should refuse a token longer than any provider issues without asking the provider', async () => {
      const user = await createUser(t.app);
      const res = await signInWith(user.email, 'x'.repeat(4097)).expect(403);
      expect(res.body).toEqual(INVALID);
      expect(fake.requests).toEqual([]);
    });

    it.each<[string, FakeCaptchaMode]>([
      ['drops the connection', 'drop-connection'],
      ['answers HTTP 500', 'http-500'],
      ['answers something other than JSON', 'not-json'],
      ['answers JSON without success', 'no-success-field'],
      ['does not answer in time', 'hang'],
    ])('should fail closed with 503 CAPTCHA_UNAVAILABLE when the provider %s', async (_what, mode) => {
      const user = await createUser(t.app);
      fake.mode = mode;
      const res = await signInWith(user.email, fake.pass()).expect(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expectNoSession(res);
      expect(fake.requests).toHaveLength(1);
    });

    it('should fail closed with 503, and log the operator problem, when the provider refuses the secret key', async () => {
      const user = await createUser(t.app);
      const token = fake.answer({ success: false, 'error-codes': ['invalid-input-secret'] });
      const res = await signInWith(user.email, token).expect(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(logs.text).toContain('check CAPTCHA_SECRET_KEY');
    });

    it('should guard sign-in by username, sign-up and forget-password too', async () => {
      const user = await createUser(t.app);
      const routes = [
        { path: '/api/auth/sign-in/username', body: { username: user.username, password: DEFAULT_PASSWORD }, ok: 200 },
        { path: '/api/auth/sign-up/email', body: { name: 'N', username: `new-${provider}`, email: `new-${provider}@example.test`, password: 'long enough password' }, ok: 201 },
        { path: '/api/auth/forget-password', body: { email: user.email }, ok: 200 },
      ];
      for (const { path, body, ok } of routes) {
        expect((await t.http().post(path).send(body).expect(400)).body).toEqual(REQUIRED);
        expect((await t.http().post(path).set(HEADER, 'unknown-token').send(body).expect(403)).body).toEqual(INVALID);
        fake.mode = 'drop-connection';
        expect((await t.http().post(path).set(HEADER, fake.pass()).send(body).expect(503)).body).toEqual(UNAVAILABLE);
        fake.mode = 'answer';
        const token = fake.pass();
        tokensSeen.push(token);
        await t.http().post(path).set(HEADER, token).send(body).expect(ok);
      }
    });

    it('should not ask for a CAPTCHA anywhere else', async () => {
      const user = await createUser(t.app);
      const signedIn = await signInWith(user.email, fake.pass()).expect(200);
      const session = sessionCookie(signedIn)!;
      fake.reset();
      await t.http().get('/api/auth/session').set('Cookie', session).expect(200);
      await t.http().get('/api/auth/captcha').expect(200);
      const reset = await t.http().post('/api/auth/reset-password').send({ token: 'nope', newPassword: 'long enough password' }).expect(400);
      expect(reset.body.code).toBe('PASSWORD_RESET_TOKEN_INVALID');
      await t.http().post('/api/user/2fa/setup').set('Cookie', session).set('Origin', TEST_ORIGIN).expect(200);
      await t.http().post('/api/auth/sign-out').set('Cookie', session).set('Origin', TEST_ORIGIN).expect(204);
      expect(fake.requests).toEqual([]);
    });

    it('should tell a sign-in page which provider and site key to render, never the secret', async () => {
      const res = await t.http().get('/api/auth/captcha').expect(200);
      expect(res.body).toEqual({ data: { provider, siteKey: `${provider}-site-key` } });
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const settings = await t.http().get('/api/settings').expect(200);
      expect(settings.body.data.captcha).toEqual({ provider, siteKey: `${provider}-site-key` });
      expect(JSON.stringify(settings.body)).not.toContain(SECRET);
    });

    it('should keep the secret key and the tokens out of the logs', () => {
      expect(logs.text.length).toBeGreaterThan(0);
      expect(tokensSeen.length).toBeGreaterThan(0);
      expect(logs.text).not.toContain(SECRET);
      for (const token of tokensSeen) {
        expect(logs.text).not.toContain(token);
      }
    });
  });

  describe('reCAPTCHA v3 score', () => {
    let fake: FakeCaptchaServer;
    let defaults: TestApp;
    let strict: TestApp;

    beforeAll(async () => {
      fake = await FakeCaptchaServer.start('recaptcha', SECRET);
      defaults = await createTestApp({ db, env: captchaEnv('recaptcha', fake.url) });
      strict = await createTestApp({ db, env: captchaEnv('recaptcha', fake.url, { CAPTCHA_MIN_SCORE: '0.9' }) });
    });

    afterAll(async () => {
      await defaults?.close();
      await strict?.close();
      await fake?.close();
    });

    it.each([
      [0.1, 403],
      [0.49, 403],
      [0.5, 200],
      [0.7, 200],
    ])('should, with the default minimum 0.5, answer a score of %d with %d', async (score, status) => {
      const user = await createUser(defaults.app);
      const res = await defaults.http().post('/api/auth/sign-in/email').set(HEADER, fake.pass(score)).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(status);
      if (status === 403) {
        expect(res.body).toEqual(INVALID);
        expectNoSession(res);
      }
    });

    it('should apply CAPTCHA_MIN_SCORE', async () => {
      const user = await createUser(strict.app);
      const body = { email: user.email, password: DEFAULT_PASSWORD };
      expect((await strict.http().post('/api/auth/sign-in/email').set(HEADER, fake.pass(0.89)).send(body).expect(403)).body).toEqual(INVALID);
      await strict.http().post('/api/auth/sign-in/email').set(HEADER, fake.pass(0.9)).send(body).expect(200);
    });

    it('should fail closed when the answer has no score (a v2 key), instead of skipping the score check', async () => {
      const user = await createUser(defaults.app);
      const token = fake.answer({ success: true, challenge_ts: new Date().toISOString(), hostname: 'panel.test' });
      const res = await defaults.http().post('/api/auth/sign-in/email').set(HEADER, token).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(503);
      expect(res.body).toEqual(UNAVAILABLE);
    });
  });

  describe('provider unreachable', () => {
    let t: TestApp;

    beforeAll(async () => {
      // Nothing listens there: the connection is refused.
      t = await createTestApp({ db, env: captchaEnv('turnstile', `http://127.0.0.1:${await freePort()}/siteverify`) });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('should answer 503 CAPTCHA_UNAVAILABLE, not let the sign-in through', async () => {
      const user = await createUser(t.app);
      const res = await t.http().post('/api/auth/sign-in/email').set(HEADER, 'any-token').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expectNoSession(res);
    });
  });

  describe('no provider configured', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ db });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('should ask for no CAPTCHA and say so', async () => {
      const user = await createUser(t.app);
      await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200);
      await t.http().post('/api/auth/forget-password').send({ email: user.email }).expect(200);
      expect((await t.http().get('/api/auth/captcha').expect(200)).body).toEqual({ data: { provider: null, siteKey: null } });
      expect((await t.http().get('/api/settings').expect(200)).body.data.captcha).toBeNull();
    });
  });
});
