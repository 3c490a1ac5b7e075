import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { AuditLogEntity } from 'src/modules/audit/audit-log.entity';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { RecoveryCodeEntity } from 'src/modules/two-factor/recovery-code.entity';
import { UserTwoFactorEntity } from 'src/modules/two-factor/user-two-factor.entity';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersRepository } from 'src/modules/users/users.repository';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

const USERS = '/api/admin/users';
const SUSPENDED = { statusCode: 403, code: 'ACCOUNT_SUSPENDED', message: 'This account is suspended; an administrator can lift the suspension' };

const codeAt = (secret: string, ms: number): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const expectError = (res: Response, body: { statusCode: number; code: string; message: string }): void => {
  expect(res.body).toEqual({ ...body, requestId: expect.any(String) });
};

describe.each(dbKinds(['postgres']))('admin: suspend sign-in and reset two-factor (%s)', (db) => {
  let t: TestApp;
  let sink: SmtpSink;
  let admin: UserEntity;
  let cookie: string;
  let sftpAuth: string;
  let node: Awaited<ReturnType<typeof createNodeRow>>['node'];
  let egg: Awaited<ReturnType<typeof createEgg>>;
  let nextIp = 1;

  const as = (method: 'get' | 'post' | 'patch' | 'delete', path: string, c = cookie) =>
    t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const signInEmail = (user: UserEntity, password = DEFAULT_PASSWORD, totp?: string) =>
    t.http().post('/api/auth/sign-in/email').send({ email: user.email, password, ...(totp ? { totp } : {}) });
  const signInUsername = (user: UserEntity) => t.http().post('/api/auth/sign-in/username').send({ username: user.username, password: DEFAULT_PASSWORD });
  const sftp = (user: UserEntity, server: ServerEntity, password = DEFAULT_PASSWORD) =>
    t
      .http()
      .post('/api/remote/sftp/auth')
      .set('Authorization', sftpAuth)
      .send({ type: 'password', username: `${user.username}.${server.identifier}`, password, ip: `198.51.100.${nextIp++}:50000` });
  const auditOf = (targetId: string) =>
    t.app.get(DataSource).getRepository(AuditLogEntity).find({ where: { targetType: 'user', targetId }, order: { id: 'ASC' } });
  const sessionsOf = (userId: string) => t.app.get(DataSource).getRepository(SessionEntity).countBy({ userId });

  /** A user with a server of their own, a session and an API key. */
  const member = async () => {
    const user = await createUser(t.app);
    const server = await createServerRow(t.app, { node, egg, owner: user, allocation: await createAllocationRow(t.app, node) });
    const userCookie = await signIn(t, user.email);
    const key = await createApiKey(t, userCookie);
    return { user, server, userCookie, key };
  };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({ db, env: { SMTP_URL: sink.url, MAIL_FROM: 'Hatchery Panel <panel@example.test>' } });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    egg = await createEgg(t.app, (await createNest(t.app)).id);
    const created = await createNodeRow(t.app);
    node = created.node;
    sftpAuth = `Bearer ${node.tokenIdentifier}.${created.token}`;
  });

  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('should refuse every way in once suspended (sessions ended, password, username, API key, SFTP) and let them all work again once lifted', async () => {
    const { user, server, userCookie, key } = await member();
    // Before: every way works.
    await t.http().get('/api/account').set('Cookie', userCookie).expect(200);
    await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
    await sftp(user, server).expect(200);

    const res = await as('post', `${USERS}/${user.id}/suspend`).expect(200);
    expect(res.body.data).toMatchObject({ id: user.id, username: user.username, suspended: true });
    expect((await t.app.get(UsersRepository).findById(user.id))!.suspended).toBe(true);

    expect(await sessionsOf(user.id)).toBe(0);
    await t.http().get('/api/account').set('Cookie', userCookie).expect(401);
    expectError(await signInEmail(user).expect(403), SUSPENDED);
    expectError(await signInUsername(user).expect(403), SUSPENDED);
    // A wrong password says nothing about the suspension.
    expect((await signInEmail(user, 'not the password').expect(401)).body.code).toBe('INVALID_CREDENTIALS');
    expectError(await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(403), SUSPENDED);
    expectError(await t.http().get('/api/client/servers').set('x-api-key', key).expect(403), SUSPENDED);
    const refused = await sftp(user, server).expect(403);
    expect(refused.body.errors).toEqual([{ code: 'SFTP_INVALID_CREDENTIALS', status: '403', detail: expect.any(String) }]);

    const lifted = await as('post', `${USERS}/${user.id}/unsuspend`).expect(200);
    expect(lifted.body.data.suspended).toBe(false);
    await signInEmail(user).expect(200);
    await t.http().get('/api/account').set('Authorization', `Bearer ${key}`).expect(200);
    await sftp(user, server).expect(200);

    expect((await auditOf(user.id)).map((e) => [e.action, e.actorId, e.changes])).toEqual([
      ['user.suspended', admin.id, { before: { suspended: false }, after: { suspended: true } }],
      ['user.unsuspended', admin.id, { before: { suspended: true }, after: { suspended: false } }],
    ]);
  });

  it('should refuse the code step of a two-factor sign-in whose password step came before the suspension', async () => {
    const user = await createUser(t.app);
    const userCookie = await signIn(t, user.email);
    const { secret } = (await as('post', '/api/user/2fa/setup', userCookie).expect(200)).body.data as { secret: string };
    const now = () => t.clock.now().getTime();
    await as('post', '/api/user/2fa/enable', userCookie).send({ code: codeAt(secret, now()) }).expect(200);
    t.clock.advance(31_000);
    const challenge = (await signInEmail(user).expect(401)).body.details.challenge as string;
    await as('post', `${USERS}/${user.id}/suspend`).expect(200);
    const res = await t.http().post('/api/auth/two-factor').send({ challenge, code: codeAt(secret, now()) }).expect(403);
    expectError(res, SUSPENDED);
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it('should answer 409 USER_CANNOT_SUSPEND_SELF, 404 for an unknown user, 403 for a non-admin, and nothing changes', async () => {
    expectError(await as('post', `${USERS}/${admin.id}/suspend`).expect(409), {
      statusCode: 409,
      code: 'USER_CANNOT_SUSPEND_SELF',
      message: 'You cannot suspend your own account',
    });
    await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    expect((await as('post', `${USERS}/999999999/suspend`).expect(404)).body.code).toBe('USER_NOT_FOUND');
    const { user, userCookie } = await member();
    const other = await createUser(t.app);
    expect((await as('post', `${USERS}/${other.id}/suspend`, userCookie).expect(403)).body.code).toBe('ADMIN_REQUIRED');
    expect((await t.app.get(UsersRepository).findById(other.id))!.suspended).toBe(false);
    // Suspending twice is one change, and one audit entry.
    await as('post', `${USERS}/${user.id}/suspend`).expect(200);
    await as('post', `${USERS}/${user.id}/suspend`).expect(200);
    expect((await auditOf(user.id)).map((e) => e.action)).toEqual(['user.suspended']);
  });

  it('should refuse an admin API key with only users.read, and take one with users.write', async () => {
    const { user } = await member();
    const readOnly = await createApiKey(t, cookie, { permissions: ['users.read'] });
    const writer = await createApiKey(t, cookie, { permissions: ['users.write'] });
    expect((await t.http().post(`${USERS}/${user.id}/suspend`).set('Authorization', `Bearer ${readOnly}`).expect(403)).body.code).toBe('MISSING_SCOPE');
    await t.http().post(`${USERS}/${user.id}/suspend`).set('Authorization', `Bearer ${writer}`).expect(200);
    const listed = await as('get', `${USERS}?search=${encodeURIComponent(user.username)}`).expect(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: user.id, suspended: true })]);
  });

  it('should turn two-factor sign-in off for a user, removing the secret and recovery codes, audited and mailed', async () => {
    const user = await createUser(t.app);
    const userCookie = await signIn(t, user.email);
    const { secret } = (await as('post', '/api/user/2fa/setup', userCookie).expect(200)).body.data as { secret: string };
    const enabled = await as('post', '/api/user/2fa/enable', userCookie).send({ code: codeAt(secret, t.clock.now().getTime()) }).expect(200);
    const recoveryCode = enabled.body.data.recoveryCodes[0] as string;
    const repo = (entity: typeof RecoveryCodeEntity | typeof UserTwoFactorEntity) => t.app.get(DataSource).getRepository(entity);
    expect(await repo(RecoveryCodeEntity).countBy({ userId: user.id })).toBeGreaterThan(0);
    expect((await signInEmail(user).expect(401)).body.code).toBe('TWO_FACTOR_REQUIRED');

    const res = await as('delete', `${USERS}/${user.id}/two-factor`).expect(200);
    expect(res.body.data).toMatchObject({ id: user.id, twoFactorEnabled: false, suspended: false });
    expect(await repo(RecoveryCodeEntity).countBy({ userId: user.id })).toBe(0);
    expect(await repo(UserTwoFactorEntity).countBy({ userId: user.id })).toBe(0);
    // The password alone signs in now; the old recovery code is worth nothing.
    await signInEmail(user).expect(200);
    expect((await as('post', '/api/user/2fa/enable', userCookie).send({ code: recoveryCode })).status).toBeGreaterThanOrEqual(400);

    expect((await auditOf(user.id)).map((e) => [e.action, e.actorId, e.changes])).toEqual([
      ['user.two_factor_enabled', user.id, {}],
      ['user.two_factor_reset', admin.id, { before: { twoFactorEnabled: true }, after: { twoFactorEnabled: false } }],
    ]);
    await t.app.get(BackgroundTasks).settled();
    expect(sink.mails.some((m) => m.to.includes(user.email) && m.subject === 'Two-factor sign-in was turned off by an administrator')).toBe(true);

    expectError(await as('delete', `${USERS}/${user.id}/two-factor`).expect(409), {
      statusCode: 409,
      code: 'TWO_FACTOR_NOT_ENABLED',
      message: 'Two-factor sign-in is not enabled',
    });
    expect((await as('delete', `${USERS}/999999999/two-factor`).expect(404)).body.code).toBe('USER_NOT_FOUND');
  });

  it('should audit users created, updated (never the password) and deleted by an admin, and find them by search', async () => {
    const created = await as('post', USERS).send({ username: 'audited-one', email: 'audited-one@example.test', password: 'a long enough password' }).expect(201);
    const id = created.body.data.id as string;
    expect(created.body.data.suspended).toBe(false);
    await as('patch', `${USERS}/${id}`).send({ name: 'Audited One', password: 'another long password', admin: true }).expect(200);
    const found = await as('get', `${USERS}?search=AUDITED-o`).expect(200);
    expect(found.body.data.map((u: { id: string }) => u.id)).toEqual([id]);
    expect((await as('get', `${USERS}?search=${encodeURIComponent('%')}`).expect(200)).body.data).toEqual([]);
    await as('delete', `${USERS}/${id}`).expect(204);
    const entries = await auditOf(id);
    expect(entries.map((e) => [e.action, e.changes])).toEqual([
      ['user.created', { after: { username: 'audited-one', email: 'audited-one@example.test', name: '', admin: false, adminRoleIds: [], suspended: false, passwordSet: true } }],
      ['user.updated', { before: { name: '', admin: false }, after: { name: 'Audited One', admin: true, passwordChanged: true } }],
      ['user.deleted', { before: { username: 'audited-one', email: 'audited-one@example.test', name: 'Audited One', admin: true, adminRoleIds: [], suspended: false } }],
    ]);
    expect(JSON.stringify(entries)).not.toContain('long password');
  });
});
