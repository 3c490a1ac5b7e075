import type { ServerEntity } from 'src/modules/servers/server.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { DAY } from 'test/utils/fake-clock';
import { LogCapture } from 'test/utils/log-capture';
import { closedPort } from 'test/utils/nodes';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

/**
 * The first hour of an invited subuser: the owner is told whether the invitation was e-mailed, an
 * administrator can hand over a one-time "choose your password" link, and the user list marks
 * accounts that were invited and never signed in.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LINK = /^http:\/\/panel\.test\/auth\/password\/reset\?token=([A-Za-z0-9_-]{43})$/;
const SENT = { email: { sent: true, reason: null } };

type Method = 'get' | 'post' | 'patch' | 'delete';

/** A panel with one server (its node is never called), its owner and an administrator, all signed in. */
const startPanel = async (t: TestApp) => {
  const owner = await createUser(t.app);
  const admin = await createUser(t.app, { admin: true });
  const egg = await createEgg(t.app, (await createNest(t.app)).id);
  const { node } = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() });
  const server: ServerEntity = await createServerRow(t.app, { node, egg, owner, overrides: { name: 'Survival' } });
  const cookies = { owner: await signIn(t, owner.email), admin: await signIn(t, admin.email) };
  const as = (who: string, method: Method, path: string) => t.http()[method](path).set('Cookie', who).set('Origin', TEST_ORIGIN);
  return {
    owner,
    admin,
    server,
    asOwner: (method: Method, path: string) => as(cookies.owner, method, path),
    asAdmin: (method: Method, path: string) => as(cookies.admin, method, path),
    as,
    addSubuser: (email: string) => as(cookies.owner, 'post', `/api/client/servers/${server.uuid}/users`).send({ email, permissions: [] }),
  };
};

describe.each(dbKinds(['postgres']))('invitations (%s)', (db) => {
  let t: TestApp;
  let sink: SmtpSink;
  let p: Awaited<ReturnType<typeof startPanel>>;
  const logs = new LogCapture();
  const tokensSeen: string[] = [];

  const makeLink = async (user: Pick<UserEntity, 'id'>): Promise<{ token: string; expiresAt: string }> => {
    const res = await p.asAdmin('post', `/api/admin/users/${user.id}/password-link`).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body.data).sort()).toEqual(['expiresAt', 'url']);
    const token = LINK.exec(res.body.data.url)?.[1];
    if (!token) {
      throw new Error(`not a password link: ${res.body.data.url}`);
    }
    tokensSeen.push(token);
    return { token, expiresAt: res.body.data.expiresAt };
  };
  const setPassword = (token: string, newPassword: string) => t.http().post('/api/auth/reset-password').send({ token, newPassword });
  const adminView = async (id: string) => (await p.asAdmin('get', `/api/admin/users/${id}`).expect(200)).body.data;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    t = await createTestApp({ db, logStream: logs, env: { SMTP_URL: sink.url, MAIL_FROM: 'panel@example.test' } });
    p = await startPanel(t);
  });

  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  afterEach(() => {
    sink.refuse = false;
  });

  it('should tell the owner the invitation (or, to an existing account, the notice) was e-mailed, and when the mail server refused it', async () => {
    const invited = await p.addSubuser('new-friend@example.test').expect(201);
    expect(invited.body.meta).toEqual(SENT);
    expect(sink.to('new-friend@example.test').map((m) => m.subject)).toEqual(['You were invited to a server on Hatchery']);

    // An existing account gets a notice, so the answer tells no more than before whether the address had an account.
    const known = await createUser(t.app);
    const added = await p.addSubuser(known.email).expect(201);
    expect(added.body.meta).toEqual(SENT);
    const [notice] = sink.to(known.email);
    expect(notice.subject).toBe('You were given access to a server on Hatchery');
    expect(notice.text).toContain(`${p.owner.username} gave your account access to the server "Survival"`);

    sink.refuse = true;
    const refused = await p.addSubuser('unlucky@example.test').expect(201);
    expect(refused.body).toEqual({ data: expect.objectContaining({ email: 'unlucky@example.test' }), meta: { email: { sent: false, reason: 'mail_failed' } } });
    expect(sink.to('unlucky@example.test')).toEqual([]);
  });

  it('should mark an invited account in the admin list until it first signs in', async () => {
    const created = (await p.addSubuser('marked@example.test').expect(201)).body.data;
    const listed = async () =>
      ((await p.asAdmin('get', '/api/admin/users?search=marked%40example.test').expect(200)).body.data as Record<string, unknown>[]).map((u) => [
        u.email,
        typeof u.invitedAt === 'string' && ISO.test(u.invitedAt),
        u.lastSignInAt,
      ]);
    expect(await listed()).toEqual([['marked@example.test', true, null]]);
    // Accounts not made by an invitation carry no mark.
    expect(await adminView(p.owner.id)).toMatchObject({ invitedAt: null, lastSignInAt: expect.stringMatching(ISO) });

    const { token } = await makeLink({ id: created.id });
    await setPassword(token, 'the chosen password').expect(204);
    // Choosing a password is not signing in yet.
    expect(await listed()).toEqual([['marked@example.test', true, null]]);
    const before = await adminView(created.id);
    await signIn(t, 'marked@example.test', 'the chosen password');
    const after = await adminView(created.id);
    expect(after.lastSignInAt).toBe(t.clock.now().toISOString());
    // A sign-in is not a change of the account.
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('should give an administrator a one-time link that sets the password, signs in with it, and is refused the second time', async () => {
    const invited = (await p.addSubuser('link-me@example.test').expect(201)).body.data;
    const { token, expiresAt } = await makeLink({ id: invited.id });
    expect(expiresAt).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());

    await setPassword(token, 'my own password 1').expect(204);
    const cookie = await signIn(t, 'link-me@example.test', 'my own password 1');
    const shared = (await p.as(cookie, 'get', '/api/client/servers').expect(200)).body.data as { uuid: string }[];
    expect(shared.map((s) => s.uuid)).toEqual([p.server.uuid]);

    const again = await setPassword(token, 'somebody else 22').expect(400);
    expect(again.body.code).toBe('PASSWORD_RESET_TOKEN_INVALID');
    await signIn(t, 'link-me@example.test', 'my own password 1');
  });

  it('should end older links (the e-mailed invitation too) when a new one is made, and expire a link after 24 hours', async () => {
    const invited = (await p.addSubuser('twice-linked@example.test').expect(201)).body.data;
    const mailed = /token=([A-Za-z0-9_-]+)/.exec(sink.to('twice-linked@example.test')[0].text)![1];
    const first = await makeLink({ id: invited.id });
    const second = await makeLink({ id: invited.id });
    for (const old of [mailed, first.token]) {
      expect((await setPassword(old, 'not this one 123').expect(400)).body.code).toBe('PASSWORD_RESET_TOKEN_INVALID');
    }

    const other = await createUser(t.app);
    const late = await makeLink(other);
    t.clock.advance(DAY - 1_000);
    await setPassword(second.token, 'in time password').expect(204);
    t.clock.advance(1_000);
    expect((await setPassword(late.token, 'too late password').expect(400)).body.code).toBe('PASSWORD_RESET_TOKEN_INVALID');
  });

  it('should audit each link with the administrator and without the token', async () => {
    const user = await createUser(t.app);
    const { token, expiresAt } = await makeLink(user);
    const entries = (await p.asAdmin('get', `/api/admin/audit-logs?action=user.password_link_created&targetId=${user.id}`).expect(200)).body.data;
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'user.password_link_created',
        target: { type: 'user', id: user.id, name: user.username, parentId: null },
        actor: expect.objectContaining({ id: p.admin.id, username: p.admin.username }),
        changes: { after: { expiresAt } },
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it('should refuse a link to a non-admin (403), for oneself (409) and for no such user (404)', async () => {
    const target = await createUser(t.app);
    const denied = await p.asOwner('post', `/api/admin/users/${target.id}/password-link`).expect(403);
    expect(denied.body).toEqual({ statusCode: 403, code: 'ADMIN_REQUIRED', message: 'This action requires an administrator', requestId: expect.any(String) });
    const self = await p.asAdmin('post', `/api/admin/users/${p.admin.id}/password-link`).expect(409);
    expect(self.body).toMatchObject({ code: 'PASSWORD_LINK_FOR_SELF' });
    for (const id of ['999999999', 'abc']) {
      expect((await p.asAdmin('post', `/api/admin/users/${id}/password-link`).expect(404)).body.code).toBe('USER_NOT_FOUND');
    }
    await t.http().post(`/api/admin/users/${target.id}/password-link`).set('Origin', TEST_ORIGIN).expect(401);
  });

  it('should keep the links out of the logs', () => {
    expect(tokensSeen.length).toBeGreaterThan(4);
    for (const token of tokensSeen) {
      expect(logs.text).not.toContain(token);
    }
  });
});

describe.each(dbKinds(['postgres']))('invitations without SMTP_URL (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should tell the owner that no e-mail was sent because the panel has no mail server, for a new and an existing account alike', async () => {
    const p = await startPanel(t);
    const notSent = { email: { sent: false, reason: 'mail_not_configured' } };
    expect((await p.addSubuser('no-mail@example.test').expect(201)).body.meta).toEqual(notSent);
    expect((await p.addSubuser((await createUser(t.app)).email).expect(201)).body.meta).toEqual(notSent);
  });
});
