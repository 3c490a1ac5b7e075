import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { dbKinds } from 'test/utils/test-db';

/** An OpenSSH public key line, as a user would paste it. */
const sshKey = (type: 'ed25519' | 'rsa' = 'ed25519', bits = 2048): string => {
  const { publicKey } =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: bits, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
      : generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const [type_, blob] = sshpk.parseKey(publicKey, 'pem').toString('ssh').split(' ');
  return `${type_} ${blob} me@laptop`;
};
const fingerprintOf = (line: string): string => sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString();

describe.each(dbKinds(['postgres']))('SSH keys and SFTP sign-in (%s)', (db) => {
  let t: TestApp;
  let owner: UserEntity;
  let ownerCookie: string;
  let admin: UserEntity;
  let server: ServerEntity;
  let auth: string;
  let otherAuth: string;
  let foreign: ServerEntity;
  /** A user with a server of their own on the calling node. */
  let attacker: UserEntity;
  let attackerServer: ServerEntity;
  let nextIp = 1;

  const as = (cookie: string) => ({
    get: (path: string) => t.http().get(path).set('Cookie', cookie),
    post: (path: string) => t.http().post(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN),
    delete: (path: string) => t.http().delete(path).set('Cookie', cookie).set('Origin', TEST_ORIGIN),
  });
  /** Each test signs in from its own client address unless it says otherwise, so the per-IP limit stays out of the way. */
  const sftp = (body: Record<string, string>, authorization = auth, ip = `203.0.113.${nextIp++}:50000`) =>
    t.http().post('/api/remote/sftp/auth').set('Authorization', authorization).send({ ip, session_id: 'c2Vzc2lvbg==', client_version: 'U1NILTIuMA==', ...body });
  const expectWingsError = (res: Response, status: number, code: string) => {
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(res.body.errors).toEqual([{ code, status: String(status), detail: expect.any(String) }]);
  };
  const login = (user: UserEntity, target: ServerEntity = server) => `${user.username}.${target.identifier}`;
  const setState = (changes: Partial<ServerEntity>) => t.app.get(DataSource).getRepository(ServerEntity).update({ id: server.id }, changes);

  beforeAll(async () => {
    t = await createTestApp({ db });
    owner = await createUser(t.app);
    ownerCookie = await signIn(t, owner.email);
    admin = await createUser(t.app, { admin: true });
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const calling = await createNodeRow(t.app);
    auth = `Bearer ${calling.node.tokenIdentifier}.${calling.token}`;
    server = await createServerRow(t.app, { node: calling.node, egg, owner, allocation: await createAllocationRow(t.app, calling.node) });
    attacker = await createUser(t.app);
    attackerServer = await createServerRow(t.app, { node: calling.node, egg, owner: attacker, allocation: await createAllocationRow(t.app, calling.node) });
    const other = await createNodeRow(t.app);
    otherAuth = `Bearer ${other.node.tokenIdentifier}.${other.token}`;
    foreign = await createServerRow(t.app, { node: other.node, egg, owner, allocation: await createAllocationRow(t.app, other.node) });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('/api/account/ssh-keys', () => {
    it('should add a key with its SHA256 fingerprint, list it, refuse it twice and delete it by fingerprint', async () => {
      const line = sshKey();
      const added = await as(ownerCookie).post('/api/account/ssh-keys').send({ name: 'laptop', publicKey: line }).expect(201);
      expect(added.body.data).toEqual({ name: 'laptop', fingerprint: fingerprintOf(line), publicKey: line.replace(/ me@laptop$/, ''), createdAt: expect.any(String) });
      expect(added.body.data.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect((await as(ownerCookie).get('/api/account/ssh-keys').expect(200)).body.data).toEqual([added.body.data]);
      expect((await as(ownerCookie).post('/api/account/ssh-keys').send({ name: 'again', publicKey: line }).expect(409)).body.code).toBe('SSH_KEY_EXISTS');

      const stranger = await signIn(t, (await createUser(t.app)).email);
      expect((await as(stranger).get('/api/account/ssh-keys').expect(200)).body.data).toEqual([]);
      await as(stranger).delete(`/api/account/ssh-keys/${encodeURIComponent(added.body.data.fingerprint)}`).expect(404);

      await as(ownerCookie).delete(`/api/account/ssh-keys/${encodeURIComponent(added.body.data.fingerprint)}`).expect(204);
      expect((await as(ownerCookie).get('/api/account/ssh-keys').expect(200)).body.data).toEqual([]);
    });

    it.each([
      ['text that is no key', 'hello world'],
      ['a private key', generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
      ['an RSA key under 2048 bits', sshKey('rsa', 1024)],
    ])('should refuse %s with 400 on publicKey', async (_name, publicKey) => {
      const res = await as(ownerCookie).post('/api/account/ssh-keys').send({ name: 'bad', publicKey }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'publicKey', message: expect.stringMatching(/^publicKey /) }] });
    });
  });

  describe('POST /api/remote/sftp/auth', () => {
    it('should let the owner in with the account password, as <username>.<identifier> or .<uuid>', async () => {
      const res = await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }).expect(200);
      expect(res.body).toEqual({ server: server.uuid, user: owner.uuid, permissions: ['*'] });
      await sftp({ type: 'password', username: `${owner.username}.${server.uuid}`, password: DEFAULT_PASSWORD }).expect(200);
      const asAdmin = await sftp({ type: 'password', username: login(admin), password: DEFAULT_PASSWORD }).expect(200);
      expect(asAdmin.body).toEqual({ server: server.uuid, user: admin.uuid, permissions: ['*'] });
    });

    it('should let a user in with a stored public key, and refuse a key it does not hold', async () => {
      const line = sshKey();
      await as(ownerCookie).post('/api/account/ssh-keys').send({ name: 'desk', publicKey: line }).expect(201);
      const res = await sftp({ type: 'public_key', username: login(owner), password: line.replace('me@laptop', 'other comment') }).expect(200);
      expect(res.body).toEqual({ server: server.uuid, user: owner.uuid, permissions: ['*'] });
      expectWingsError(await sftp({ type: 'public_key', username: login(owner), password: sshKey() }), 403, 'SFTP_INVALID_CREDENTIALS');
      expectWingsError(await sftp({ type: 'public_key', username: login(owner), password: 'garbage' }), 403, 'SFTP_INVALID_CREDENTIALS');
    });

    it('should give a subuser its mapped permissions only with server.files.sftp', async () => {
      const withSftp = await createUser(t.app);
      const without = await createUser(t.app);
      const base = `/api/client/servers/${server.uuid}/users`;
      await as(ownerCookie).post(base).send({ email: withSftp.email, permissions: ['server.files.sftp', 'server.files.read', 'server.power'] }).expect(201);
      await as(ownerCookie).post(base).send({ email: without.email, permissions: ['server.files.read', 'server.files.write'] }).expect(201);
      const res = await sftp({ type: 'password', username: login(withSftp), password: DEFAULT_PASSWORD }).expect(200);
      expect(res.body.permissions.sort()).toEqual(['control.restart', 'control.start', 'control.stop', 'file.read', 'file.read-content', 'file.sftp']);
      expectWingsError(await sftp({ type: 'password', username: login(without), password: DEFAULT_PASSWORD }), 403, 'SFTP_INVALID_CREDENTIALS');
      const stranger = await createUser(t.app);
      expectWingsError(await sftp({ type: 'password', username: login(stranger), password: DEFAULT_PASSWORD }), 403, 'SFTP_INVALID_CREDENTIALS');
    });

    it('should refuse a wrong password or unknown user with 403, and log the failure on the server', async () => {
      expectWingsError(await sftp({ type: 'password', username: login(owner), password: 'not the password' }), 403, 'SFTP_INVALID_CREDENTIALS');
      expectWingsError(await sftp({ type: 'password', username: `nobody.${server.identifier}`, password: DEFAULT_PASSWORD }), 403, 'SFTP_INVALID_CREDENTIALS');
      expectWingsError(await sftp({ type: 'password', username: server.identifier, password: DEFAULT_PASSWORD }), 404, 'SFTP_SERVER_NOT_FOUND');
      const denied = await t.app.get(DataSource).getRepository(ServerActivityEntity).find({ where: { serverId: server.id, event: 'server.sftp.denied' }, order: { id: 'ASC' } });
      expect(denied.slice(-2).map((a) => [a.actorId === null ? null : String(a.actorId), a.metadata])).toEqual([
        [String(owner.id), { username: login(owner), method: 'password', reason: 'wrong username or password' }],
        [null, { username: `nobody.${server.identifier}`, method: 'password', reason: 'wrong username or password' }],
      ]);
      expect(JSON.stringify(denied)).not.toContain('not the password');
    });

    it('should answer 404 for an unknown server and for a server on another node', async () => {
      expectWingsError(await sftp({ type: 'password', username: `${owner.username}.abcdef12`, password: DEFAULT_PASSWORD }), 404, 'SFTP_SERVER_NOT_FOUND');
      expectWingsError(await sftp({ type: 'password', username: login(owner, foreign), password: DEFAULT_PASSWORD }), 404, 'SFTP_SERVER_NOT_FOUND');
      // The other node's own daemon gets in.
      await sftp({ type: 'password', username: login(owner, foreign), password: DEFAULT_PASSWORD }, otherAuth).expect(200);
    });

    it('should answer 409 while the server is suspended or installing, after checking the credentials', async () => {
      try {
        await setState({ suspended: true });
        expectWingsError(await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }), 409, 'SFTP_SERVER_UNAVAILABLE');
        expectWingsError(await sftp({ type: 'password', username: login(owner), password: 'wrong' }), 403, 'SFTP_INVALID_CREDENTIALS');
        await setState({ suspended: false, status: 'installing' });
        expectWingsError(await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }), 409, 'SFTP_SERVER_UNAVAILABLE');
      } finally {
        await setState({ suspended: false, status: null });
      }
    });

    it('should answer 429 to the sixth attempt in a minute from one client IP after five failures, even with the right password', async () => {
      const ip = '198.51.100.7:40000';
      for (let i = 0; i < 5; i += 1) {
        expectWingsError(await sftp({ type: 'password', username: login(owner), password: `wrong ${i}` }, auth, ip), 403, 'SFTP_INVALID_CREDENTIALS');
      }
      const limited = await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }, auth, ip);
      expectWingsError(limited, 429, 'SFTP_TOO_MANY_ATTEMPTS');
      expect(limited.body.details.retryAfterSeconds).toBeGreaterThan(0);
      // Another address is not held back; the same one is let in once the minute has passed.
      await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }, auth, '198.51.100.8:40000').expect(200);
      t.clock.advance(MINUTE);
      await sftp({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }, auth, ip).expect(200);
    });

    it("should not clear one address's failures when it signs in to another account, and answer 429 with the rate-limit headers", async () => {
      const ip = '198.51.100.9:40000';
      const opened = t.clock.now().getTime();
      for (let i = 0; i < 4; i += 1) {
        const res = await sftp({ type: 'password', username: login(owner), password: `guess ${i}` }, auth, ip);
        expectWingsError(res, 403, 'SFTP_INVALID_CREDENTIALS');
        expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['5', String(4 - i)]);
      }
      // The attacker's own account signs in between the guesses: the address's failures stay.
      await sftp({ type: 'password', username: login(attacker, attackerServer), password: DEFAULT_PASSWORD }, auth, ip).expect(200);
      expectWingsError(await sftp({ type: 'password', username: login(owner), password: 'guess 4' }, auth, ip), 403, 'SFTP_INVALID_CREDENTIALS');
      t.clock.advance(12_345);
      const limited = await sftp({ type: 'password', username: login(owner), password: 'guess 5' }, auth, ip);
      expectWingsError(limited, 429, 'SFTP_TOO_MANY_ATTEMPTS');
      const retryAfter = Math.ceil((opened + MINUTE - t.clock.now().getTime()) / 1000);
      expect({
        limit: limited.headers['x-ratelimit-limit'],
        remaining: limited.headers['x-ratelimit-remaining'],
        reset: limited.headers['x-ratelimit-reset'],
        retryAfter: limited.headers['retry-after'],
        details: limited.body.details,
      }).toEqual({ limit: '5', remaining: '0', reset: String(Math.ceil((opened + MINUTE) / 1000)), retryAfter: String(retryAfter), details: { retryAfterSeconds: retryAfter } });
    });

    it('should let no more than five of many parallel guesses from one address be tried', async () => {
      const ip = '198.51.100.10:40000';
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sftp({ type: 'password', username: login(owner), password: `parallel ${i}` }, auth, ip)));
      expect(answers.map((r) => r.status).sort()).toEqual([...Array<number>(5).fill(403), ...Array<number>(7).fill(429)]);
    });

    it('should refuse malformed bodies with 400 in the Wings error shape, and calls without the node token with 401', async () => {
      expectWingsError(await sftp({ type: 'keyboard-interactive', username: login(owner), password: 'x' }), 400, 'VALIDATION_FAILED');
      await t.http().post('/api/remote/sftp/auth').send({ type: 'password', username: login(owner), password: DEFAULT_PASSWORD }).expect(401);
    });
  });
});
