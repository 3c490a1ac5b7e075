import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { LogCapture } from 'test/utils/log-capture';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

const STEP_MS = 30_000;
const RECOVERY_CODE = /^[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}-[a-hjkmnp-z2-9]{4}$/;

/** The code an authenticator app shows for `secret` at `ms`, computed independently of the panel. */
const codeAt = (secret: string, ms: number): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const errorBody = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });

describe.each(dbKinds(['postgres']))('two-factor sign-in (%s)', (db) => {
  let t: TestApp;
  let sink: SmtpSink;
  const logs = new LogCapture();
  const secretsSeen: string[] = [];

  const post = (path: string, cookie: string) => t.http().post(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const now = (): number => t.clock.now().getTime();
  /** Moves the clock to 1 s into the next 30 s step, so that step arithmetic in a test is exact. */
  const toNextStep = (): void => t.clock.advance(STEP_MS - (now() % STEP_MS) + 1_000);
  const settled = (): Promise<void> => t.app.get(BackgroundTasks).settled();

  const setup = async (cookie: string): Promise<{ secret: string; uri: string }> => {
    const res = await post('/api/user/2fa/setup', cookie).expect(200);
    secretsSeen.push(res.body.data.secret);
    return res.body.data;
  };

  /** Signs in, sets up and enables two-factor sign-in with the current code; the clock is at the start of a step. */
  const enable = async (user: UserEntity): Promise<{ cookie: string; secret: string; recoveryCodes: string[]; enabledAt: number }> => {
    const cookie = await signIn(t, user.email);
    const { secret } = await setup(cookie);
    toNextStep();
    const enabledAt = now();
    const res = await post('/api/user/2fa/enable', cookie).send({ code: codeAt(secret, enabledAt) }).expect(200);
    secretsSeen.push(...res.body.data.recoveryCodes);
    return { cookie, secret, recoveryCodes: res.body.data.recoveryCodes, enabledAt };
  };

  const signInWith = (user: UserEntity, totp?: string, password = DEFAULT_PASSWORD) =>
    t.http().post('/api/auth/sign-in/email').send({ email: user.email, password, ...(totp === undefined ? {} : { totp }) });

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({ db, logStream: logs, env: { SMTP_URL: sink.url, MAIL_FROM: 'Hatchery Panel <panel@example.test>' } });
  });

  beforeEach(() => {
    sink.refuse = false;
  });

  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('should set up without enabling: a secret and its otpauth:// URI, and sign-in still needs no code', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const first = await setup(cookie);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.uri).toBe(
      `otpauth://totp/Hatchery:${encodeURIComponent(user.email)}?issuer=Hatchery&secret=${first.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await t.http().get('/api/account').set('Cookie', cookie).expect(200)).body.data.twoFactorEnabled).toBe(false);
    await signInWith(user).expect(200);

    // A second setup replaces the pending secret: a code of the first no longer enables.
    const second = await setup(cookie);
    expect(second.secret).not.toBe(first.secret);
    const stale = await post('/api/user/2fa/enable', cookie).send({ code: codeAt(first.secret, now()) }).expect(400);
    expect(stale.body).toEqual(errorBody(400, 'INVALID_TWO_FACTOR_CODE'));
    await post('/api/user/2fa/enable', cookie).send({ code: codeAt(second.secret, now()) }).expect(200);
  });

  it('should enable with a current code, answer ten one-time recovery codes, and mail the owner a notice', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const { secret } = await setup(cookie);
    toNextStep();
    const wrong = codeAt(secret, now() + 5 * STEP_MS);
    expect((await post('/api/user/2fa/enable', cookie).send({ code: wrong }).expect(400)).body).toEqual(errorBody(400, 'INVALID_TWO_FACTOR_CODE'));
    expect((await t.http().get('/api/account').set('Cookie', cookie).expect(200)).body.data.twoFactorEnabled).toBe(false);

    const res = await post('/api/user/2fa/enable', cookie).send({ code: codeAt(secret, now()) }).expect(200);
    const codes: string[] = res.body.data.recoveryCodes;
    secretsSeen.push(...codes);
    expect(Object.keys(res.body.data)).toEqual(['recoveryCodes']);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((c) => expect(c).toMatch(RECOVERY_CODE));
    expect((await t.http().get('/api/account').set('Cookie', cookie).expect(200)).body.data.twoFactorEnabled).toBe(true);

    await settled();
    const mails = sink.to(user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Two-factor sign-in was turned on']);
    expect(mails[0].from).toContain('panel@example.test');
    expect(mails[0].text).toContain('Two-factor sign-in was just turned on for your Hatchery account.');

    expect((await post('/api/user/2fa/enable', cookie).send({ code: codeAt(secret, now()) }).expect(409)).body).toEqual(
      errorBody(409, 'TWO_FACTOR_ALREADY_ENABLED'),
    );
    expect((await post('/api/user/2fa/setup', cookie).expect(409)).body).toEqual(errorBody(409, 'TWO_FACTOR_ALREADY_ENABLED'));
  });

  it('should refuse enabling before setup', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    expect((await post('/api/user/2fa/enable', cookie).send({ code: '123456' }).expect(409)).body).toEqual(errorBody(409, 'TWO_FACTOR_NOT_SET_UP'));
  });

  it('should then refuse a sign-in without a code, or with a wrong one, and make no session', async () => {
    const user = await createUser(t.app);
    const { secret } = await enable(user);
    const missing = await signInWith(user).expect(401);
    expect(missing.body).toEqual({
      statusCode: 401,
      code: 'TWO_FACTOR_REQUIRED',
      message:
        'A second factor is needed: send the code from your authenticator app (or a recovery code), or a passkey (details.methods), with details.challenge to POST /api/auth/two-factor',
      details: { challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresInSeconds: 300, methods: ['totp'] },
      requestId: expect.any(String),
    });
    secretsSeen.push(missing.body.details.challenge);
    const byUsername = await t.http().post('/api/auth/sign-in/username').send({ username: user.username, password: DEFAULT_PASSWORD }).expect(401);
    expect(byUsername.body.code).toBe('TWO_FACTOR_REQUIRED');
    const wrong = await signInWith(user, codeAt(secret, now() + 10 * STEP_MS)).expect(401);
    expect(wrong.body).toEqual(errorBody(401, 'TWO_FACTOR_INVALID'));
    const notACode = await signInWith(user, 'zzzz-zzzz-zzzz').expect(401);
    expect(notACode.body).toEqual(errorBody(401, 'TWO_FACTOR_INVALID'));
    for (const res of [missing, byUsername, wrong, notACode]) {
      expect(sessionCookie(res)).toBeUndefined();
    }
    // A wrong password says nothing about the second factor, even with a right code.
    t.clock.advance(STEP_MS);
    const badPassword = await signInWith(user, codeAt(secret, now()), 'not the password').expect(401);
    expect(badPassword.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('should sign in with a current code once: the same code, and the one that enabled, are refused after', async () => {
    const user = await createUser(t.app);
    const { secret, enabledAt } = await enable(user);
    expect((await signInWith(user, codeAt(secret, enabledAt)).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');

    t.clock.advance(STEP_MS);
    const code = codeAt(secret, now());
    const ok = await signInWith(user, code).expect(200);
    expect(sessionCookie(ok)).toBeDefined();
    const replay = await signInWith(user, code).expect(401);
    expect(replay.body.code).toBe('TWO_FACTOR_INVALID');
    expect(sessionCookie(replay)).toBeUndefined();
    const username = await t.http().post('/api/auth/sign-in/username').send({ username: user.username, password: DEFAULT_PASSWORD, totp: code }).expect(401);
    expect(username.body.code).toBe('TWO_FACTOR_INVALID');

    t.clock.advance(STEP_MS);
    await t.http().post('/api/auth/sign-in/username').send({ username: user.username, password: DEFAULT_PASSWORD, totp: codeAt(secret, now()) }).expect(200);
  });

  it('should accept the codes of the steps next to the current one (clock drift), not two steps away, and never an older step than one used', async () => {
    const user = await createUser(t.app);
    const { secret, enabledAt } = await enable(user); // step s used
    t.clock.advance(3 * STEP_MS); // now in step s+3
    const step = (n: number): string => codeAt(secret, enabledAt + n * STEP_MS);
    expect((await signInWith(user, step(1)).expect(401)).body.code).toBe('TWO_FACTOR_INVALID'); // two steps back
    expect((await signInWith(user, step(5)).expect(401)).body.code).toBe('TWO_FACTOR_INVALID'); // two steps ahead
    await signInWith(user, step(2)).expect(200); // one back
    await signInWith(user, step(4)).expect(200); // one ahead
    expect((await signInWith(user, step(3)).expect(401)).body.code).toBe('TWO_FACTOR_INVALID'); // current, but older than s+4
  });

  it('should take each recovery code once, typed in any case and without dashes, and mail a notice each time', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const { recoveryCodes } = await enable(user);
    const { recoveryCodes: othersCodes } = await enable(other);

    expect(sessionCookie(await signInWith(user, recoveryCodes[0]).expect(200))).toBeDefined();
    expect((await signInWith(user, recoveryCodes[0]).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');
    await signInWith(user, recoveryCodes[1].toUpperCase().replace(/-/g, '')).expect(200);
    expect((await signInWith(user, othersCodes[2]).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');
    await signInWith(other, othersCodes[2]).expect(200);

    await settled();
    const notices = sink.to(user.email).filter((m) => m.subject === 'A recovery code was used to sign in');
    expect(notices.map((m) => m.text.match(/\d+ unused recovery codes? remains?/)?.[0])).toEqual([
      '9 unused recovery codes remain',
      '8 unused recovery codes remain',
    ]);
  });

  describe('the code step by challenge (POST /api/auth/two-factor)', () => {
    /** The challenge a password sign-in without a code answers. */
    const challengeFor = async (user: UserEntity): Promise<string> => {
      const res = await signInWith(user).expect(401);
      expect(res.body.code).toBe('TWO_FACTOR_REQUIRED');
      secretsSeen.push(res.body.details.challenge);
      return res.body.details.challenge;
    };
    const step = (challenge: string, code: string) => t.http().post('/api/auth/two-factor').send({ challenge, code });
    const challengeInvalid = errorBody(401, 'TWO_FACTOR_CHALLENGE_INVALID');
    const invalid = (attemptsLeft: number) => ({ ...errorBody(401, 'TWO_FACTOR_INVALID'), details: { attemptsLeft } });

    it('should sign in with a TOTP code as a sign-in does (the same body, a working session cookie), once', async () => {
      const user = await createUser(t.app);
      const { secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const challenge = await challengeFor(user);
      const res = await step(challenge, codeAt(secret, now())).expect(200);
      expect(res.body).toEqual({
        data: {
          user: expect.objectContaining({ id: String(user.id), email: user.email, twoFactorEnabled: true }),
          session: { id: expect.any(String), expiresAt: expect.any(String) },
          twoFactorSetupRequired: false,
        },
      });
      const cookie = sessionCookie(res)!;
      expect(cookie).toBeDefined();
      const session = (await t.http().get('/api/auth/session').set('Cookie', cookie).expect(200)).body.data;
      expect(session.session).toMatchObject({ id: res.body.data.session.id, fresh: true });
      expect(Object.keys(res.body.data.user).sort()).toEqual(Object.keys(session.user).sort());

      // Used: the challenge is gone, whatever code comes with it.
      t.clock.advance(STEP_MS);
      const again = await step(challenge, codeAt(secret, now())).expect(401);
      expect(again.body).toEqual(challengeInvalid);
      expect(sessionCookie(again)).toBeUndefined();
    });

    it('should take a recovery code once', async () => {
      const user = await createUser(t.app);
      const { recoveryCodes } = await enable(user);
      await step(await challengeFor(user), recoveryCodes[0]).expect(200);
      const reused = await step(await challengeFor(user), recoveryCodes[0]).expect(401);
      expect(reused.body).toEqual(invalid(4));
      await settled();
      expect(sink.to(user.email).filter((m) => m.subject === 'A recovery code was used to sign in')).toHaveLength(1);
    });

    it('should refuse a wrong code without ending the challenge, and then take the right one', async () => {
      const user = await createUser(t.app);
      const { secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const challenge = await challengeFor(user);
      const wrong = await step(challenge, codeAt(secret, now() + 10 * STEP_MS)).expect(401);
      expect(wrong.body).toEqual(invalid(4));
      expect(sessionCookie(wrong)).toBeUndefined();
      expect((await step(challenge, 'zzzz-zzzz-zzzz').expect(401)).body).toEqual(invalid(3));
      await step(challenge, codeAt(secret, now())).expect(200);
    });

    it('should end the challenge after 5 wrong codes, even for the right one after', async () => {
      const user = await createUser(t.app);
      const { secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const challenge = await challengeFor(user);
      for (const left of [4, 3, 2, 1, 0]) {
        expect((await step(challenge, codeAt(secret, now() + 10 * STEP_MS)).expect(401)).body).toEqual(invalid(left));
      }
      expect((await step(challenge, codeAt(secret, now())).expect(401)).body).toEqual(challengeInvalid);
      // A new sign-in gets a new challenge with 5 codes of its own.
      await step(await challengeFor(user), codeAt(secret, now())).expect(200);
    });

    it('should expire 5 minutes after the sign-in', async () => {
      const user = await createUser(t.app);
      const { secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const early = await challengeFor(user);
      const late = await challengeFor(user);
      t.clock.advance(5 * MINUTE - 1_000);
      await step(early, codeAt(secret, now())).expect(200);
      t.clock.advance(1_000);
      expect((await step(late, codeAt(secret, now() + STEP_MS)).expect(401)).body).toEqual(challengeInvalid);
    });

    it('should sign in once when the same challenge and code arrive together', async () => {
      const user = await createUser(t.app);
      const { secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const challenge = await challengeFor(user);
      const code = codeAt(secret, now());
      const results = await Promise.all([step(challenge, code), step(challenge, code), step(challenge, code)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    });

    it('should end when the password changes or two-factor sign-in is turned off', async () => {
      const user = await createUser(t.app);
      const { cookie, secret } = await enable(user);
      t.clock.advance(STEP_MS);
      const beforeChange = await challengeFor(user);
      await t.http().put('/api/account/password').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ currentPassword: DEFAULT_PASSWORD, newPassword: 'the next long password' }).expect(204);
      expect((await step(beforeChange, codeAt(secret, now())).expect(401)).body).toEqual(challengeInvalid);

      const beforeDisable = (await signInWith(user, undefined, 'the next long password').expect(401)).body.details.challenge;
      await post('/api/user/2fa/disable', cookie).send({ password: 'the next long password' }).expect(204);
      expect((await step(beforeDisable, codeAt(secret, now())).expect(401)).body).toEqual(challengeInvalid);
    });

    it('should keep only the hash of a challenge, and refuse an unknown or malformed one', async () => {
      const user = await createUser(t.app);
      await enable(user);
      const challenge = await challengeFor(user);
      const rows: { token_hash: string }[] = await t.app.get(DataSource).query('SELECT token_hash FROM two_factor_challenge WHERE user_id = $1', [user.id]);
      expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(challenge).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(challenge);

      expect((await step('A'.repeat(43), '123456').expect(401)).body).toEqual(challengeInvalid);
      const malformed = await step('short', '123456').expect(400);
      expect(malformed.body.details).toEqual([{ field: 'challenge', message: 'challenge must be the challenge the sign-in answered' }]);
      const missing = await t.http().post('/api/auth/two-factor').send({ challenge }).expect(400);
      expect(missing.body.details).toEqual([{ field: 'code', message: 'code must be a 6-digit code or a recovery code' }]);
    });
  });

  it('should disable with the password: a wrong one is 400, then sign-in needs no code, the secret and codes are gone, and a notice is mailed', async () => {
    const user = await createUser(t.app);
    const { cookie, secret, recoveryCodes } = await enable(user);
    const wrong = await post('/api/user/2fa/disable', cookie).send({ password: 'not the password' }).expect(400);
    expect(wrong.body).toEqual(errorBody(400, 'INVALID_PASSWORD'));
    expect((await signInWith(user).expect(401)).body.code).toBe('TWO_FACTOR_REQUIRED');

    await post('/api/user/2fa/disable', cookie).send({ password: DEFAULT_PASSWORD }).expect(204);
    expect((await t.http().get('/api/account').set('Cookie', cookie).expect(200)).body.data.twoFactorEnabled).toBe(false);
    await signInWith(user).expect(200);
    // A code of the old secret, or an old recovery code, is not needed and not asked for; it changes nothing.
    t.clock.advance(STEP_MS);
    await signInWith(user, codeAt(secret, now())).expect(200);
    await signInWith(user, recoveryCodes[0]).expect(200);
    const rows = await t.app.get(DataSource).query(
      'SELECT (SELECT count(*) FROM user_two_factor WHERE user_id = $1)::int AS secrets, (SELECT count(*) FROM user_recovery_code WHERE user_id = $1)::int AS codes',
      [user.id],
    );
    expect(rows).toEqual([{ secrets: 0, codes: 0 }]);

    await settled();
    expect(sink.to(user.email).map((m) => m.subject)).toEqual(['Two-factor sign-in was turned on', 'Two-factor sign-in was turned off']);
    expect((await post('/api/user/2fa/disable', cookie).send({ password: DEFAULT_PASSWORD }).expect(409)).body).toEqual(
      errorBody(409, 'TWO_FACTOR_NOT_ENABLED'),
    );
    expect((await post('/api/user/2fa/enable', cookie).send({ code: codeAt(secret, now()) }).expect(409)).body.code).toBe('TWO_FACTOR_NOT_SET_UP');
  });

  it('should keep the secret sealed to its row and only hashes of the recovery codes', async () => {
    const user = await createUser(t.app);
    const { secret, recoveryCodes } = await enable(user);
    const dataSource = t.app.get(DataSource);
    const [row] = await dataSource.query('SELECT secret_sealed, confirmed_at, last_used_step FROM user_two_factor WHERE user_id = $1', [user.id]);
    expect(row.secret_sealed).toMatch(/^v1:/);
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.confirmed_at).not.toBeNull();
    const hashes: { code_hash: string }[] = await dataSource.query('SELECT code_hash FROM user_recovery_code WHERE user_id = $1', [user.id]);
    expect(hashes).toHaveLength(10);
    const stored = JSON.stringify(hashes);
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
    hashes.forEach((h) => expect(h.code_hash).toMatch(/^[0-9a-f]{64}$/));

    // Sealed to `user:<id>:totp`: copied onto another user's row it does not open, and that user cannot sign in with it.
    const other = await createUser(t.app);
    await enable(other);
    await dataSource.query('UPDATE user_two_factor SET secret_sealed = $1 WHERE user_id = $2', [row.secret_sealed, other.id]);
    t.clock.advance(STEP_MS);
    const res = await signInWith(other, codeAt(secret, now()));
    expect(res.status).toBe(500);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('should need a signed-in session: API keys get 403, anonymous callers 401, and setup a fresh sign-in', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const key = await createApiKey(t, cookie);
    for (const path of ['/api/user/2fa/setup', '/api/user/2fa/enable', '/api/user/2fa/disable']) {
      expect((await t.http().post(path).set('Authorization', `Bearer ${key}`).send({}).expect(403)).body.code).toBe('SESSION_REQUIRED');
      expect((await t.http().post(path).send({}).expect(401)).body.code).toBe('UNAUTHENTICATED');
      expect((await t.http().post(path).set('Cookie', cookie).send({}).expect(403)).body.code).toBe('UNTRUSTED_ORIGIN');
    }
    const { secret } = await setup(cookie);
    t.clock.advance(6 * MINUTE);
    expect((await post('/api/user/2fa/setup', cookie).expect(403)).body.code).toBe('SESSION_NOT_FRESH');
    // Enabling needs the secret that only the fresh setup showed, not a fresh session.
    await post('/api/user/2fa/enable', cookie).send({ code: codeAt(secret, now()) }).expect(200);
  });

  it('should validate the bodies', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const short = await post('/api/user/2fa/enable', cookie).send({ code: '12345' }).expect(400);
    expect(short.body.details).toEqual([{ field: 'code', message: 'code must be the 6-digit code from the authenticator app' }]);
    const extra = await post('/api/user/2fa/disable', cookie).send({ password: 'x', admin: true }).expect(400);
    expect(extra.body.details).toEqual([{ field: 'admin', message: 'property admin should not exist' }]);
    const badTotp = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD, totp: 'no spaces!' }).expect(400);
    expect(badTotp.body.details).toEqual([{ field: 'totp', message: 'totp must be a 6-digit code or a recovery code' }]);
  });

  it('should still enable and disable when the mail server refuses the notice, and log a warning', async () => {
    const user = await createUser(t.app);
    sink.refuse = true;
    const { cookie } = await enable(user);
    await post('/api/user/2fa/disable', cookie).send({ password: DEFAULT_PASSWORD }).expect(204);
    await settled();
    expect(sink.to(user.email)).toEqual([]);
    // This user's warning only: an earlier test's notice, sent after its answer, may be refused in this one.
    const warnings = logs.lines().filter((l) => l.msg === 'The two-factor enabled notice e-mail could not be sent through SMTP_URL' && l.userId === String(user.id));
    expect(warnings).toEqual([expect.objectContaining({ level: 40, userId: String(user.id), responseCode: 550 })]);
  });

  it('should keep secrets, recovery codes and passwords out of the logs', () => {
    expect(secretsSeen.length).toBeGreaterThan(20);
    for (const secret of secretsSeen) {
      expect(logs.text).not.toContain(secret);
    }
    expect(logs.text).not.toContain(DEFAULT_PASSWORD);
    expect(logs.text).not.toMatch(/"totp":"/);
  });
});
