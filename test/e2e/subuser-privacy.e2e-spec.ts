import { DataSource } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { UsersRepository } from 'src/modules/users/users.repository';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { Requester, SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { SmtpSink } from 'test/utils/smtp-sink';
import { dbKinds } from 'test/utils/test-db';

/**
 * Subusers do not see other people's addresses in the activity log, and adding a
 * subuser by an address no account uses answers as for a known one and mails an invitation.
 */

const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const LINK = /http:\/\/panel\.test\/auth\/password\/reset\?token=([A-Za-z0-9_-]+)/;
const INVITATION_SUBJECT = 'You were invited to a server on Hatchery';

/** The JSON type of every field, recursively: what a client can tell apart without reading values. */
const shapeOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shapeOf)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]))
      : value === null
        ? 'null'
        : typeof value;

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('subuser privacy (%s)', (db) => {
  let p: SimPanel;
  let sink: SmtpSink;
  let base: string;
  let uuid: string;

  const settled = () => p.t.app.get(BackgroundTasks).settled();
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> => p.t.app.get(DataSource).query(query, params);

  beforeAll(async () => {
    sink = await SmtpSink.start();
    p = await startSimPanel(db, { env: { SMTP_URL: sink.url, MAIL_FROM: 'panel@example.test' } });
    const server = await p.createServer({ name: 'Shared' });
    uuid = server.uuid;
    base = `/api/client/servers/${uuid}`;
    await p.installed(server.id);
  });

  afterAll(async () => {
    await p?.close();
    await sink?.close();
  });

  describe('activity addresses', () => {
    it('should show activity IPs to the owner and an admin, and null to a subuser with activity access', async () => {
      const { user, as: subuser } = await p.newUser();
      await p.asOwner('post', `${base}/users`).send({ email: user.email, permissions: ['server.activity.read', 'server.files.write'] }).expect(201);
      await p.asOwner('post', `${base}/files/write`).send({ file: '/owner.txt', content: 'x' }).expect(204);
      await subuser('post', `${base}/files/write`).send({ file: '/subuser.txt', content: 'x' }).expect(204);

      const byOwner = (await p.asOwner('get', `${base}/activity`).expect(200)).body.data as { event: string; ip: string | null }[];
      expect(byOwner.length).toBeGreaterThanOrEqual(3);
      expect(byOwner.filter((e) => e.event === 'server.file.write').map((e) => typeof e.ip)).toEqual(['string', 'string']);
      const byAdmin = (await p.admin('get', `${base}/activity`).expect(200)).body.data as { ip: string | null }[];
      expect(byAdmin.map((e) => e.ip)).toEqual(byOwner.map((e) => e.ip));

      const bySubuser = await subuser('get', `${base}/activity`).expect(200);
      const entries = bySubuser.body.data as Record<string, unknown>[];
      expect(entries).toHaveLength(byOwner.length);
      // The field stays, empty, so clients parse one shape; the subuser's own address is withheld too.
      expect(entries.map((e) => ('ip' in e ? e.ip : 'missing'))).toEqual(entries.map(() => null));
      expect(bySubuser.text).not.toContain(byOwner.find((e) => e.ip)!.ip!);
    });
  });

  describe('adding a subuser by an unknown e-mail', () => {
    const add = (email: string, permissions: string[] = ['server.files.read']) => p.asOwner('post', `${base}/users`).send({ email, permissions });

    it('should answer with the same status and shape as for a known account, mail an invitation to the unknown one and a notice to the known one', async () => {
      const { user: known } = await p.newUser();
      const knownRes = await add(known.email);
      const unknownRes = await add('Newcomer@Example.test');
      expect(unknownRes.status).toBe(knownRes.status);
      expect(knownRes.status).toBe(201);
      expect(shapeOf(unknownRes.body)).toEqual(shapeOf(knownRes.body));
      expect(Object.keys(unknownRes.headers).sort()).toEqual(Object.keys(knownRes.headers).sort());
      expect(unknownRes.body.data).toMatchObject({ email: 'newcomer@example.test', permissions: ['server.view', 'server.files.read'], twoFactorEnabled: false });
      expect(unknownRes.body.data.username).toMatch(/^newcomer_[a-z0-9]{6}$/);

      // The activity log tells them apart no more than the answer does.
      const activity = (await p.asOwner('get', `${base}/activity`).expect(200)).body.data.slice(0, 2);
      expect(activity.map((e: { event: string; metadata: Record<string, unknown> }) => [e.event, Object.keys(e.metadata).sort()])).toEqual([
        ['server.subuser.create', ['email', 'permissions']],
        ['server.subuser.create', ['email', 'permissions']],
      ]);

      // Both answers say the e-mail went out: the known account was told it was added.
      expect([knownRes.body.meta, unknownRes.body.meta]).toEqual([{ email: { sent: true, reason: null } }, { email: { sent: true, reason: null } }]);
      await settled();
      expect(sink.to(known.email).map((m) => m.subject)).toEqual(['You were given access to a server on Hatchery']);
      const mails = sink.to('newcomer@example.test');
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(INVITATION_SUBJECT);
      expect(mails[0].text).toContain('"Shared"');
      expect(mails[0].text).toMatch(LINK);
    });

    it('should let the invited account choose its password through the link, then sign in and see the shared server', async () => {
      const email = 'invitee@example.test';
      const added = (await add(email, ['server.files.read', 'websocket.connect']).expect(201)).body.data;
      // No password works before one is chosen.
      const before = await p.t.http().post('/api/auth/sign-in/email').send({ email, password: '!' });
      expect(before.status).toBe(401);
      await settled();
      const token = LINK.exec(sink.to(email).at(-1)!.text)![1];
      await p.t.http().post('/api/auth/reset-password').send({ token, newPassword: 'my chosen password' }).expect(204);
      const signedIn = await p.t.http().post('/api/auth/sign-in/email').send({ email, password: 'my chosen password' }).expect(200);
      const cookie = (signedIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('hatchery_session='))!.split(';')[0];
      const as: Requester = (method, path) => p.t.http()[method](path).set('Cookie', cookie);
      const account = (await as('get', '/api/account').expect(200)).body.data;
      expect(account).toMatchObject({ id: added.id, email, username: added.username });
      const shared = (await as('get', '/api/client/servers?type=subuser').expect(200)).body.data;
      expect(shared.map((s: { uuid: string }) => s.uuid)).toEqual([uuid]);
      expect((await as('get', base).expect(200)).body.data.permissions).toEqual(['server.view', 'websocket.connect', 'server.files.read']);
      // The link is single-use.
      await p.t.http().post('/api/auth/reset-password').send({ token, newPassword: 'another password!' }).expect(400);
    });

    it('should leave no account, link or subuser behind when adding fails', async () => {
      // A permission the caller may not grant is refused before anything is written.
      const { as: manager, user: managerUser } = await p.newUser();
      await p.asOwner('post', `${base}/users`).send({ email: managerUser.email, permissions: ['server.subuser.create'] }).expect(201);
      const refused = await manager('post', `${base}/users`).send({ email: 'not-granted@example.test', permissions: ['server.power'] }).expect(403);
      expect(refused.body.code).toBe('SUBUSER_PERMISSION_NOT_HELD');
      expect(await p.t.app.get(UsersRepository).findByEmail('not-granted@example.test')).toBeNull();

      // A failure after the account is written (here the activity entry, refused by the database) undoes it all.
      await sql(`CREATE FUNCTION refuse_invite() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.metadata->>'email' = 'rolled-back@example.test' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
      await sql('CREATE TRIGGER refuse_invite BEFORE INSERT ON server_activity FOR EACH ROW EXECUTE FUNCTION refuse_invite()');
      try {
        const failed = await add('rolled-back@example.test');
        expect(failed.status).toBe(500);
      } finally {
        await sql('DROP TRIGGER refuse_invite ON server_activity');
        await sql('DROP FUNCTION refuse_invite()');
      }
      expect(await sql('SELECT id FROM "user" WHERE email = $1', ['rolled-back@example.test'])).toEqual([]);
      await settled();
      expect(sink.to('rolled-back@example.test')).toEqual([]);
      const tokens = await sql<{ n: string }>('SELECT count(*)::text AS n FROM password_reset_token t LEFT JOIN "user" u ON u.id = t.user_id WHERE u.id IS NULL');
      expect(tokens[0].n).toBe('0');
      // The same address works once the failure is gone.
      await add('rolled-back@example.test').expect(201);
    });

    it('should add both requests to one new account when the same unknown e-mail is added twice at once', async () => {
      const other = await p.createServer({ name: 'Second' });
      await p.installed(other.id);
      const [a, b] = await Promise.all([
        add('twice@example.test'),
        p.asOwner('post', `/api/client/servers/${other.uuid}/users`).send({ email: 'twice@example.test', permissions: [] }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.data.id).toBe(b.body.data.id);
      expect(await sql('SELECT id FROM "user" WHERE email = $1', ['twice@example.test'])).toHaveLength(1);
    });
  });
});
