import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { UsersRepository } from 'src/modules/users/users.repository';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { Requester, SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('subusers (%s)', (db) => {
  let p: SimPanel;
  let uuid: string;
  let base: string;

  const subuser = async (permissions: string[]) => {
    const account = await p.newUser();
    const created = await p.asOwner('post', `${base}/users`).send({ email: account.user.email, permissions }).expect(201);
    return { ...account, id: created.body.data.id as string };
  };

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer({ name: 'Shared' });
    uuid = server.uuid;
    base = `/api/client/servers/${uuid}`;
    await p.installed(server.id);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should invite an existing user by e-mail, with the implied server.view, in catalogue order', async () => {
    const { user } = await p.newUser();
    const res = await p.asOwner('post', `${base}/users`).send({ email: user.email.toUpperCase(), permissions: ['server.power', 'server.console'] }).expect(201);
    expect(res.body.data).toEqual({
      id: String(user.id),
      uuid: user.uuid,
      username: user.username,
      email: user.email,
      twoFactorEnabled: false,
      permissions: ['server.view', 'server.console', 'server.power'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = (await p.asOwner('get', `${base}/users`).expect(200)).body.data;
    expect(list.map((s: { id: string }) => s.id)).toContain(String(user.id));
    expect((await p.asOwner('get', `${base}/users/${user.id}`).expect(200)).body.data.email).toBe(user.email);
    const activity = (await p.asOwner('get', `${base}/activity`).expect(200)).body.data;
    expect(activity[0]).toMatchObject({ event: 'server.subuser.create', metadata: { email: user.email, permissions: ['server.view', 'server.console', 'server.power'] } });
  });

  // An unknown e-mail must not answer 404 USER_NOT_FOUND: that would tell whether an account exists.
  it('should invite an unknown e-mail as a new account instead of answering 404', async () => {
    const res = await p.asOwner('post', `${base}/users`).send({ email: 'nobody-here@example.test', permissions: [] }).expect(201);
    expect(res.body.data).toMatchObject({ email: 'nobody-here@example.test', permissions: ['server.view'] });
    expect((await p.t.app.get(UsersRepository).findByEmail('nobody-here@example.test'))?.id).toBe(res.body.data.id);
  });

  it('should refuse unknown permissions, the owner, a second entry and malformed bodies', async () => {
    const { user } = await p.newUser();
    const unknown = await p.asOwner('post', `${base}/users`).send({ email: user.email, permissions: ['server.view', 'server.everything'] }).expect(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_PERMISSION', details: { unknown: ['server.everything'] } });
    const ownerEmail = (await p.asOwner('get', '/api/account').expect(200)).body.data.email;
    expect((await p.asOwner('post', `${base}/users`).send({ email: ownerEmail, permissions: [] }).expect(409)).body.code).toBe('SUBUSER_IS_OWNER');
    await p.asOwner('post', `${base}/users`).send({ email: user.email, permissions: [] }).expect(201);
    expect((await p.asOwner('post', `${base}/users`).send({ email: user.email, permissions: [] }).expect(409)).body.code).toBe('SUBUSER_EXISTS');
    const bad = await p.asOwner('post', `${base}/users`).send({ email: 'not-an-email', permissions: 'server.view' }).expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await p.asOwner('get', `${base}/users/999999`).expect(404)).body.code).toBe('SUBUSER_NOT_FOUND');
    expect((await p.asOwner('get', `${base}/users/abc`).expect(404)).body.code).toBe('SUBUSER_NOT_FOUND');
  });

  it('should let a subuser reach the server with its permissions only, and list it under ?type=subuser', async () => {
    const s = await subuser(['server.console']);
    const details = (await s.as('get', base).expect(200)).body.data;
    expect(details.permissions).toEqual(['server.view', 'server.console']);
    const denied = await s.as('post', `${base}/power`).send({ action: 'start' }).expect(403);
    expect(denied.body).toMatchObject({ code: 'SERVER_PERMISSION_DENIED', message: expect.stringContaining('server.power') });
    const shared = (await s.as('get', '/api/client/servers?type=subuser').expect(200)).body;
    expect(shared.data).toHaveLength(1);
    expect(shared.data[0]).toMatchObject({ uuid, permissions: ['server.view', 'server.console'] });
    expect(shared.meta.pagination.total).toBe(1);
    expect((await s.as('get', '/api/client/servers?type=owner').expect(200)).body.data).toEqual([]);
  });

  it('should list the servers a user owns and those shared with them as one list in id order, a page at a time', async () => {
    const s = await subuser(['server.console']);
    const own = async (name: string) => (await p.createServer({ name, owner_id: s.user.id })).uuid;
    const first = await own('Own first');
    const sharedLater = (await p.createServer({ name: 'Shared later' })).uuid;
    await p.asOwner('post', `/api/client/servers/${sharedLater}/users`).send({ email: s.user.email, permissions: ['server.power'] }).expect(201);
    const last = await own('Own last');
    const list = async (query: string) => (await s.as('get', `/api/client/servers${query}`).expect(200)).body;
    const summary = (body: { data: { uuid: string; permissions: string[] }[] }) => body.data.map((d) => [d.uuid, d.permissions.length > 2 ? 'all' : d.permissions]);

    const page1 = await list('?perPage=2');
    expect(summary(page1)).toEqual([
      [uuid, ['server.view', 'server.console']],
      [first, 'all'],
    ]);
    expect(page1.meta.pagination).toEqual({ total: 4, count: 2, perPage: 2, currentPage: 1, totalPages: 2 });
    const page2 = await list('?perPage=2&page=2');
    expect(summary(page2)).toEqual([
      [sharedLater, ['server.view', 'server.power']],
      [last, 'all'],
    ]);
    expect(page2.meta.pagination).toMatchObject({ total: 4, count: 2, currentPage: 2 });
    expect((await list('')).data.map((d: { uuid: string }) => d.uuid)).toEqual([uuid, first, sharedLater, last]);
    expect((await list('?type=owner')).data.map((d: { uuid: string }) => d.uuid)).toEqual([first, last]);
    expect((await list('?type=subuser')).data.map((d: { uuid: string }) => d.uuid)).toEqual([uuid, sharedLater]);
    // admin-all is every server for administrators only; anyone else gets their own.
    expect((await list('?type=admin-all')).data.map((d: { uuid: string }) => d.uuid)).toEqual([first, last]);
  });

  it("should sign a subuser's console token with only the Wings permissions its grant maps to", async () => {
    const s = await subuser(['websocket.connect', 'server.power', 'server.files.read']);
    const creds = (await s.as('get', `${base}/websocket`).expect(200)).body.data;
    const claims = jwt.decode(creds.token) as { permissions: string[]; user_uuid: string };
    expect(claims.permissions.sort()).toEqual(['control.restart', 'control.start', 'control.stop', 'file.read', 'file.read-content', 'websocket.connect']);
    expect(claims.user_uuid).toBe(s.user.uuid);
  });

  it('should not let a subuser grant what it lacks, nor change or remove its own entry', async () => {
    const manager = await subuser(['server.subuser.create', 'server.subuser.update', 'server.subuser.delete', 'server.console']);
    const target = await p.newUser();
    const escalate = await manager.as('post', `${base}/users`).send({ email: target.user.email, permissions: ['server.power'] }).expect(403);
    expect(escalate.body).toMatchObject({ code: 'SUBUSER_PERMISSION_NOT_HELD', details: { notHeld: ['server.power'] } });
    const added = await manager.as('post', `${base}/users`).send({ email: target.user.email, permissions: ['server.console'] }).expect(201);
    expect(added.body.data.permissions).toEqual(['server.view', 'server.console']);
    await manager.as('post', `${base}/users/${target.user.id}`).send({ permissions: ['server.files.read'] }).expect(403);
    expect((await manager.as('post', `${base}/users/${manager.id}`).send({ permissions: ['server.power'] }).expect(403)).body.code).toBe('SUBUSER_SELF');
    expect((await manager.as('delete', `${base}/users/${manager.id}`).expect(403)).body.code).toBe('SUBUSER_SELF');
  });

  const denials = (userId: string) => {
    const jti = createHash('md5').update(`${userId}${uuid}`).digest('hex');
    return p.sim.requestsTo(`/api/servers/${uuid}/ws/deny`, 'POST').filter((r) => (JSON.parse(r.body ?? '{}') as { jtis: string[] }).jtis.includes(jti));
  };

  it("should cut a subuser's console sessions when its permissions change", async () => {
    const s = await subuser(['websocket.connect', 'server.console']);
    const token = (await s.as('get', `${base}/websocket`).expect(200)).body.data.token;
    const { jti } = jwt.decode(token) as { jti: string };
    const updated = await p.asOwner('post', `${base}/users/${s.id}`).send({ permissions: ['websocket.connect'] }).expect(200);
    expect(updated.body.data.permissions).toEqual(['server.view', 'websocket.connect']);
    expect(denials(s.id)).toHaveLength(1);
    expect(JSON.parse(denials(s.id)[0].body!)).toEqual({ jtis: [jti] });
    await s.as('post', `${base}/command`).send({ command: 'say hi' }).expect(403);
    // The same permissions again change nothing, so nothing is revoked.
    await p.asOwner('post', `${base}/users/${s.id}`).send({ permissions: ['websocket.connect', 'server.view'] }).expect(200);
    expect(denials(s.id)).toHaveLength(1);
  });

  it('should remove a subuser: its console tokens are denied on the daemon and the server is gone for it', async () => {
    const s = await subuser(['websocket.connect']);
    await s.as('get', `${base}/websocket`).expect(200);
    await p.asOwner('delete', `${base}/users/${s.id}`).expect(204);
    expect(denials(s.id)).toHaveLength(1);
    expect((await s.as('get', base).expect(404)).body.code).toBe('SERVER_NOT_FOUND');
    await p.asOwner('get', `${base}/users/${s.id}`).expect(404);
    const activity = (await p.asOwner('get', `${base}/activity`).expect(200)).body.data;
    expect(activity[0]).toMatchObject({ event: 'server.subuser.delete', metadata: { email: s.user.email } });
  });

  it('should still remove a subuser when the daemon cannot be reached', async () => {
    const s = await subuser(['server.console']);
    p.sim.faults.status500 = true;
    try {
      await p.asOwner('delete', `${base}/users/${s.id}`).expect(204);
    } finally {
      p.sim.faults.status500 = false;
    }
    await s.as('get', base).expect(404);
  });

  it('should let an admin manage subusers of any server, and hide them from strangers', async () => {
    const s = await subuser([]);
    expect((await p.admin('get', `${base}/users/${s.id}`).expect(200)).body.data.permissions).toEqual(['server.view']);
    const stranger: Requester = (await p.newUser()).as;
    await stranger('get', `${base}/users`).expect(404);
    await stranger('post', `${base}/users`).send({ email: s.user.email, permissions: [] }).expect(404);
  });
});
