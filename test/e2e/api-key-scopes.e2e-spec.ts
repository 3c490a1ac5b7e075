import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import sshpk from 'sshpk';
import type { Response } from 'supertest';
import { createApiKey, signIn } from 'test/utils/auth';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { createUser } from 'test/factories/user.factory';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

/**
 * An admin's API key limited by scopes reaches nothing beyond them. On servers
 * its owner does not own it needs servers.read for reads and servers.write for the rest; it never
 * reaches the credential routes. A key holding all of its owner's rights works as a session does.
 */

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

const sshLine = (): string => {
  const { publicKey } = generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return sshpk.parseKey(publicKey, 'pem').toString('ssh');
};

type KeyKind = 'full admin key' | 'servers.read' | 'servers.write' | 'nodes.read' | 'non-admin key';
const KINDS: KeyKind[] = ['full admin key', 'servers.read', 'servers.write', 'nodes.read', 'non-admin key'];

const MISSING_READ = { code: 'MISSING_SCOPE', message: 'The API key lacks the servers.read scope this action requires' };
const MISSING_WRITE = { code: 'MISSING_SCOPE', message: 'The API key lacks the servers.write scope this action requires' };
const LIMITED = {
  code: 'API_KEY_LIMITED',
  message: 'An API key limited by scopes cannot manage account credentials; use a session or a key with all of your rights',
};
const NOT_FOUND = { code: 'SERVER_NOT_FOUND' };

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('API key scopes on client and account routes (%s)', (db) => {
  let p: SimPanel;
  /** A customer's server (the keyed admin is neither owner nor subuser). */
  let customer: string;
  /** A server the key's owner owns (the admin's own, or the non-admin's own). */
  const own = new Map<KeyKind, string>();
  const keys = new Map<KeyKind, string>();
  let adminCookie: string;

  const as = (kind: KeyKind, method: 'get' | 'post' | 'put' | 'delete', path: string) => p.t.http()[method](path).set('x-api-key', keys.get(kind)!);

  const installed = (id: string) => p.installed(id);

  beforeAll(async () => {
    p = await startSimPanel(db);
    const keyedAdmin = await createUser(p.t.app, { admin: true });
    const plain = await createUser(p.t.app);
    adminCookie = await signIn(p.t, keyedAdmin.email);
    const plainCookie = await signIn(p.t, plain.email);
    keys.set('full admin key', await createApiKey(p.t, adminCookie));
    keys.set('servers.read', await createApiKey(p.t, adminCookie, { permissions: ['servers.read'] }));
    keys.set('servers.write', await createApiKey(p.t, adminCookie, { permissions: ['servers.write'] }));
    keys.set('nodes.read', await createApiKey(p.t, adminCookie, { permissions: ['nodes.read'] }));
    keys.set('non-admin key', await createApiKey(p.t, plainCookie));

    const made = await p.createServer({ name: 'Customer' });
    customer = made.uuid;
    const adminsOwn = await p.createServer({ name: 'Admin own', owner_id: keyedAdmin.id });
    const plainsOwn = await p.createServer({ name: 'Plain own', owner_id: plain.id });
    for (const kind of KINDS) {
      own.set(kind, kind === 'non-admin key' ? plainsOwn.uuid : adminsOwn.uuid);
    }
    for (const id of [made.id, adminsOwn.id, plainsOwn.id]) {
      await installed(id);
    }
  });

  afterAll(async () => {
    await p?.close();
  });

  const outcome = (res: Response) => ({ status: res.status, ...(res.status >= 400 ? { code: res.body.code, message: res.body.message } : {}) });

  describe('a read on a customer server (GET /api/client/servers/{server})', () => {
    const expected: Record<KeyKind, object> = {
      'full admin key': { status: 200 },
      'servers.read': { status: 200 },
      'servers.write': { status: 403, ...MISSING_READ },
      'nodes.read': { status: 404, ...NOT_FOUND },
      'non-admin key': { status: 404, ...NOT_FOUND },
    };
    it.each(KINDS)('%s', async (kind) => {
      expect(outcome(await as(kind, 'get', `/api/client/servers/${customer}`))).toMatchObject(expected[kind]);
    });
  });

  describe('a write on a customer server (POST .../files/write)', () => {
    const expected: Record<KeyKind, { status: number }> = {
      'full admin key': { status: 204 },
      'servers.read': { status: 403, ...MISSING_WRITE },
      'servers.write': { status: 204 },
      'nodes.read': { status: 404, ...NOT_FOUND },
      'non-admin key': { status: 404, ...NOT_FOUND },
    };
    it.each(KINDS)('%s', async (kind) => {
      const file = `by-${kind.replace(/[^a-z]/g, '-')}.txt`;
      const res = await as(kind, 'post', `/api/client/servers/${customer}/files/write`).send({ file, content: 'x' });
      expect(outcome(res)).toMatchObject(expected[kind]);
      expect(existsSync(join(p.sim.servers.get(customer)!.fs.root, file))).toBe(expected[kind].status === 204);
    });
  });

  describe('a write on the key owner’s own server (POST .../files/write)', () => {
    it.each(KINDS)('%s', async (kind) => {
      const res = await as(kind, 'post', `/api/client/servers/${own.get(kind)}/files/write`).send({ file: 'mine.txt', content: 'x' });
      expect(outcome(res)).toEqual({ status: 204 });
    });
  });

  describe('the credential routes (API keys, SSH keys, sessions)', () => {
    const refused = (kind: KeyKind) => ['servers.read', 'servers.write', 'nodes.read'].includes(kind);
    it.each(KINDS)('%s', async (kind) => {
      const calls: [string, Response][] = [
        ['GET api-keys', await as(kind, 'get', '/api/account/api-keys')],
        ['POST api-keys', await as(kind, 'post', '/api/account/api-keys').send({ name: 'minted' })],
        ['GET ssh-keys', await as(kind, 'get', '/api/account/ssh-keys')],
        ['POST ssh-keys', await as(kind, 'post', '/api/account/ssh-keys').send({ name: 'planted', publicKey: sshLine() })],
        ['GET sessions', await as(kind, 'get', '/api/account/sessions')],
      ];
      const want = (route: string) =>
        refused(kind) ? { route, status: 403, ...LIMITED } : { route, status: route.startsWith('POST') ? 201 : 200 };
      expect(calls.map(([route, res]) => ({ route, ...outcome(res) }))).toEqual(calls.map(([route]) => want(route)));
      // Password, e-mail and two-factor stay session-only for every key.
      const password = await as(kind, 'put', '/api/account/password').send({ currentPassword: 'x', newPassword: 'another password' });
      expect(outcome(password)).toMatchObject({ status: 403, code: 'SESSION_REQUIRED' });
    });
  });

  it('should not let a nodes.read key plant an SSH key on the admin account (SFTP on every server)', async () => {
    const before = (await p.t.http().get('/api/account/ssh-keys').set('Cookie', adminCookie).expect(200)).body.data.length;
    const res = await as('nodes.read', 'post', '/api/account/ssh-keys').send({ name: 'backdoor', publicKey: sshLine() });
    expect(outcome(res)).toEqual({ status: 403, ...LIMITED });
    const after = (await p.t.http().get('/api/account/ssh-keys').set('Cookie', adminCookie).expect(200)).body.data;
    expect(after.map((k: { name: string }) => k.name)).not.toContain('backdoor');
    expect(after).toHaveLength(before);
  });

  it("should not let a servers.read key kill a customer's server or add a subuser there", async () => {
    const base = `/api/client/servers/${customer}`;
    await p.asOwner('post', `${base}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(customer)?.state === 'running');
    const kill = await as('servers.read', 'post', `${base}/power`).send({ action: 'kill' });
    expect(outcome(kill)).toEqual({ status: 403, ...MISSING_WRITE });
    expect(p.sim.servers.get(customer)?.state).toBe('running');
    const { user } = await p.newUser();
    const add = await as('servers.read', 'post', `${base}/users`).send({ email: user.email, permissions: ['server.files.sftp'] });
    expect(outcome(add)).toEqual({ status: 403, ...MISSING_WRITE });
    const subusers = (await p.asOwner('get', `${base}/users`).expect(200)).body.data;
    expect(subusers.map((s: { email: string }) => s.email)).not.toContain(user.email);
  });

  it('should give a servers.read key a console token that can watch but not drive the server', async () => {
    const res = await as('servers.read', 'get', `/api/client/servers/${customer}/websocket`).expect(200);
    const claims = jwt.decode(res.body.data.token) as { permissions: string[] };
    expect(claims.permissions).toContain('websocket.connect');
    expect(claims.permissions.filter((x) => x === '*' || x.startsWith('control.') || x === 'file.update')).toEqual([]);
    const full = await as('full admin key', 'get', `/api/client/servers/${customer}/websocket`).expect(200);
    expect((jwt.decode(full.body.data.token) as { permissions: string[] }).permissions).toContain('*');
    // The details page shows the same limits.
    const details = await as('servers.read', 'get', `/api/client/servers/${customer}`).expect(200);
    expect(details.body.data.permissions).toContain('server.files.read');
    expect(details.body.data.permissions).not.toContain('server.files.write');
  });

  it('should keep a subuser grant of the admin usable through a key that lacks servers.write', async () => {
    const keyedAdmin = await createUser(p.t.app, { admin: true });
    const cookie = await signIn(p.t, keyedAdmin.email);
    const key = await createApiKey(p.t, cookie, { permissions: ['nodes.read'] });
    const base = `/api/client/servers/${customer}`;
    await p.asOwner('post', `${base}/users`).send({ email: keyedAdmin.email, permissions: ['server.files.write'] }).expect(201);
    await p.t.http().post(`${base}/files/write`).set('x-api-key', key).send({ file: 'granted.txt', content: 'x' }).expect(204);
    const denied = await p.t.http().post(`${base}/power`).set('x-api-key', key).send({ action: 'stop' });
    expect(outcome(denied)).toMatchObject({ status: 403, code: 'SERVER_PERMISSION_DENIED' });
  });

  it("should list every server for type=admin-all only when the key carries servers.read", async () => {
    const names = async (kind: KeyKind) =>
      ((await as(kind, 'get', '/api/client/servers?type=admin-all').expect(200)).body.data as { name: string }[]).map((s) => s.name).sort();
    expect(await names('full admin key')).toEqual(['Admin own', 'Customer', 'Plain own']);
    expect(await names('servers.read')).toEqual(['Admin own', 'Customer', 'Plain own']);
    expect(await names('nodes.read')).toEqual(['Admin own']);
    expect(await names('non-admin key')).toEqual(['Plain own']);
  });

  it('should still let a session of the same admin do everything on the customer server', async () => {
    await p.t
      .http()
      .post(`/api/client/servers/${customer}/files/write`)
      .set('Cookie', adminCookie)
      .set('Origin', TEST_ORIGIN)
      .send({ file: 'by-session.txt', content: 'x' })
      .expect(204);
  });
});
