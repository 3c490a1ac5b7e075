import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersRepository } from 'src/modules/users/users.repository';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { LogCapture } from 'test/utils/log-capture';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

const NEW_PASSWORD = 'a fresh password from the link';
const FORGET_BODY = { data: { message: 'If an account uses this e-mail address, a link to reset its password is on its way' } };
const LINK = /http:\/\/panel\.test\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/;
const INVALID_TOKEN = {
  statusCode: 400,
  code: 'PASSWORD_RESET_TOKEN_INVALID',
  message: 'This password reset link is invalid, was already used or has expired; request a new one',
  requestId: expect.any(String),
};

describe.each(dbKinds(['postgres']))('password reset by e-mail (%s)', (db) => {
  let t: TestApp;
  let sink: SmtpSink;
  const logs = new LogCapture();
  const tokensSeen: string[] = [];

  const settled = (): Promise<void> => t.app.get(BackgroundTasks).settled();
  const forget = (email: string) => t.http().post('/api/auth/forget-password').send({ email });
  const reset = (token: string, newPassword = NEW_PASSWORD) => t.http().post('/api/auth/reset-password').send({ token, newPassword });

  /** Asks for a reset and reads the token from the link in the newest mail to the user. */
  const mailedToken = async (user: UserEntity): Promise<string> => {
    await forget(user.email).expect(200);
    await settled();
    const mails = sink.to(user.email).filter((m) => m.subject === 'Reset your Hatchery password');
    const token = LINK.exec(mails[mails.length - 1]?.text ?? '')?.[1];
    if (!token) {
      throw new Error(`no reset link mailed to ${user.email}`);
    }
    tokensSeen.push(token);
    return token;
  };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({ db, logStream: logs, env: { SMTP_URL: sink.url, MAIL_FROM: 'panel@example.test' } });
  });

  beforeEach(() => {
    sink.refuse = false;
  });

  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('should answer 200 with one body whether or not the account exists, and mail a one-hour link only to the account', async () => {
    const user = await createUser(t.app);
    const before = sink.mails.length;
    const known = await forget(user.email.toUpperCase()).expect(200);
    const unknown = await forget(`nobody-${user.username}@example.test`).expect(200);
    expect(known.body).toEqual(FORGET_BODY);
    expect(unknown.body).toEqual(known.body);
    expect(known.headers['set-cookie']).toBeUndefined();
    expect(unknown.headers['set-cookie']).toBeUndefined();

    await settled();
    expect(sink.mails.length - before).toBe(1);
    const [mail] = sink.to(user.email);
    expect(mail).toMatchObject({ from: 'panel@example.test', subject: 'Reset your Hatchery password' });
    expect(mail.text).toContain('open this link within one hour');
    const token = LINK.exec(mail.text)?.[1];
    tokensSeen.push(token!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    expect(sink.to(`nobody-${user.username}@example.test`)).toEqual([]);
  });

  it('should answer before the account is even looked up, so its timing cannot tell either', async () => {
    const user = await createUser(t.app);
    const users = t.app.get(UsersRepository);
    let release!: (found: UserEntity | null) => void;
    const lookup = jest.spyOn(users, 'findByEmail').mockImplementationOnce(() => new Promise((resolve) => (release = resolve)));
    try {
      const res = await forget(user.email).expect(200);
      expect(res.body).toEqual(FORGET_BODY);
      expect(lookup).toHaveBeenCalledWith(user.email);
      expect(sink.to(user.email)).toEqual([]); // still waiting on the lookup
      release(user);
      await settled();
      expect(sink.to(user.email).map((m) => m.subject)).toEqual(['Reset your Hatchery password']);
    } finally {
      lookup.mockRestore();
    }
  });

  it('should set the password from the link: 204, every session signed out, the old password refused, and a notice mailed', async () => {
    const user = await createUser(t.app);
    const sessions = [await signIn(t, user.email), await signIn(t, user.email)];
    const token = await mailedToken(user);
    const res = await reset(token).expect(204);
    expect(res.text).toBe('');
    for (const cookie of sessions) {
      await t.http().get('/api/account').set('Cookie', cookie).expect(401);
    }
    expect((await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401)).body.code).toBe(
      'INVALID_CREDENTIALS',
    );
    await signIn(t, user.email, NEW_PASSWORD);
    const [hash] = await t.app.get(DataSource).query('SELECT password_hash FROM "user" WHERE id = $1', [user.id]);
    expect(hash.password_hash).toMatch(/^\$argon2id\$/);

    await settled();
    const notice = sink.to(user.email).find((m) => m.subject === 'Your Hatchery password was reset');
    expect(notice?.text).toContain('every session was signed out');
  });

  it('should take a token once', async () => {
    const user = await createUser(t.app);
    const token = await mailedToken(user);
    await reset(token).expect(204);
    expect((await reset(token, 'yet another password').expect(400)).body).toEqual(INVALID_TOKEN);
    await signIn(t, user.email, NEW_PASSWORD);
  });

  it('should refuse a link mailed before the password was changed another way', async () => {
    const user = await createUser(t.app);
    const token = await mailedToken(user);
    const cookie = await signIn(t, user.email);
    await t.http().put('/api/account/password').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ currentPassword: DEFAULT_PASSWORD, newPassword: 'changed by hand 123' }).expect(204);
    expect((await reset(token).expect(400)).body).toEqual(INVALID_TOKEN);
    await signIn(t, user.email, 'changed by hand 123');
  });

  it('should let only one of two concurrent uses of a token through', async () => {
    const user = await createUser(t.app);
    const token = await mailedToken(user);
    const results = await Promise.all([reset(token, 'first concurrent password'), reset(token, 'second concurrent password')]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 400]);
    const winner = results[0].status === 204 ? 'first concurrent password' : 'second concurrent password';
    await signIn(t, user.email, winner);
  });

  it('should expire a token one hour after it was mailed', async () => {
    const early = await createUser(t.app);
    const late = await createUser(t.app);
    const earlyToken = await mailedToken(early);
    const lateToken = await mailedToken(late);
    t.clock.advance(60 * MINUTE - 1_000);
    await reset(earlyToken).expect(204);
    t.clock.advance(1_000);
    expect((await reset(lateToken).expect(400)).body).toEqual(INVALID_TOKEN);
    await signIn(t, late.email);
  });

  it('should invalidate the earlier link when a new one is asked for', async () => {
    const user = await createUser(t.app);
    const first = await mailedToken(user);
    const second = await mailedToken(user);
    expect(second).not.toBe(first);
    expect((await reset(first).expect(400)).body).toEqual(INVALID_TOKEN);
    await reset(second).expect(204);
  });

  it('should keep only the SHA-256 of the token', async () => {
    const user = await createUser(t.app);
    const token = await mailedToken(user);
    const rows = await t.app.get(DataSource).query('SELECT * FROM password_reset_token WHERE user_id = $1', [user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(60 * MINUTE);
  });

  it('should refuse unknown tokens, and validate the body', async () => {
    expect((await reset('not-a-token-we-sent').expect(400)).body).toEqual(INVALID_TOKEN);
    const weak = await reset('whatever', 'short').expect(400);
    expect(weak.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'newPassword', message: expect.any(String) }] });
    const extra = await t.http().post('/api/auth/reset-password').send({ token: 'x', newPassword: NEW_PASSWORD, email: 'a@b.test' }).expect(400);
    expect(extra.body.details).toEqual([{ field: 'email', message: 'property email should not exist' }]);
    const notAnEmail = await t.http().post('/api/auth/forget-password').send({ email: 'not an e-mail' }).expect(400);
    expect(notAnEmail.body.code).toBe('VALIDATION_FAILED');
  });

  it('should still ask for the second factor after a reset', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const setup = await t.http().post('/api/user/2fa/setup').set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(200);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    tokensSeen.push(setup.body.data.secret);
    await t.http().post('/api/user/2fa/enable').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ code: totp.generate({ timestamp: t.clock.now().getTime() }) }).expect(200);
    await reset(await mailedToken(user)).expect(204);
    const res = await t.http().post('/api/auth/sign-in/email').send({ email: user.email, password: NEW_PASSWORD }).expect(401);
    expect(res.body.code).toBe('TWO_FACTOR_REQUIRED');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('should answer 200 and log a warning when the mail server refuses the link', async () => {
    const user = await createUser(t.app);
    sink.refuse = true;
    expect((await forget(user.email).expect(200)).body).toEqual(FORGET_BODY);
    await settled();
    expect(sink.to(user.email)).toEqual([]);
    const warnings = logs.lines().filter((l) => l.msg === 'The password reset e-mail could not be sent through SMTP_URL');
    expect(warnings).toEqual([expect.objectContaining({ level: 40, userId: String(user.id), responseCode: 550 })]);
  });

  it('should keep tokens and passwords out of the logs', () => {
    expect(tokensSeen.length).toBeGreaterThan(5);
    for (const token of tokensSeen) {
      expect(logs.text).not.toContain(token);
    }
    for (const password of [DEFAULT_PASSWORD, NEW_PASSWORD, 'first concurrent password', 'second concurrent password']) {
      expect(logs.text).not.toContain(password);
    }
  });
});

describe.each(dbKinds(['postgres']))('password reset without SMTP_URL (%s)', (db) => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should still answer 200, and log a warning that no mail was sent', async () => {
    const user = await createUser(t.app);
    const res = await t.http().post('/api/auth/forget-password').send({ email: user.email }).expect(200);
    expect(res.body).toEqual(FORGET_BODY);
    await t.app.get(BackgroundTasks).settled();
    const warnings = logs.lines().filter((l) => l.msg === 'SMTP_URL is not set: the password reset e-mail was not sent');
    expect(warnings).toEqual([expect.objectContaining({ level: 40, purpose: 'password reset', userId: String(user.id) })]);
    await t.http().get('/api/health').expect(200);
  });
});
