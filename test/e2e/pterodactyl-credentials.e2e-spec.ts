import * as bcrypt from 'bcryptjs';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import type { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { sessionCookie, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

// Users imported from a Pterodactyl panel keep its credentials: a bcrypt password hash (Laravel's
// `$2y$10$…`) and bcrypt hashes of their 2FA recovery codes (Str::random(10)).

const IMPORTED_PASSWORD = 'my pterodactyl password';
const STEP_MS = 30_000;

/** A hash as Laravel's Hash::make writes it: bcrypt at cost 10, with PHP's `$2y$` prefix. */
const laravelBcrypt = (secret: string): string => bcrypt.hashSync(secret, 10).replace(/^\$2b\$/, '$2y$');

const codeAt = (secret: string, ms: number): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const errorBody = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });

describe.each(dbKinds(['postgres']))('credentials imported from Pterodactyl (%s)', (db) => {
  let t: TestApp;
  let dataSource: DataSource;

  const storedHash = async (user: UserEntity): Promise<{ hash: string; updatedAt: string }> => {
    const [row] = await dataSource.query('SELECT password_hash, updated_at FROM "user" WHERE id = $1', [user.id]);
    return { hash: row.password_hash, updatedAt: new Date(row.updated_at).toISOString() };
  };
  /** A user as the importer leaves it: Pterodactyl's bcrypt hash in password_hash. */
  const importedUser = async (): Promise<{ user: UserEntity; bcryptHash: string }> => {
    const user = await createUser(t.app);
    const bcryptHash = laravelBcrypt(IMPORTED_PASSWORD);
    expect(bcryptHash).toMatch(/^\$2y\$10\$.{53}$/);
    await dataSource.query('UPDATE "user" SET password_hash = $1 WHERE id = $2', [bcryptHash, user.id]);
    return { user, bcryptHash };
  };
  const signInWith = (user: UserEntity, password: string, totp?: string) =>
    t.http().post('/api/auth/sign-in/email').send({ email: user.email, password, ...(totp === undefined ? {} : { totp }) });

  beforeAll(async () => {
    t = await createTestApp({ db });
    dataSource = t.app.get(DataSource);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('bcrypt password hashes', () => {
    it('should refuse a wrong password as usual and keep the bcrypt hash', async () => {
      const { user, bcryptHash } = await importedUser();
      const res = await signInWith(user, 'not my pterodactyl password').expect(401);
      expect(res.body).toEqual(errorBody(401, 'INVALID_CREDENTIALS', 'Invalid credentials'));
      expect(sessionCookie(res)).toBeUndefined();
      expect((await storedHash(user)).hash).toBe(bcryptHash);
    });

    it('should sign in with the Pterodactyl password, replace its hash by argon2id once, and keep signing in with it', async () => {
      const { user, bcryptHash } = await importedUser();
      const before = await storedHash(user);

      const res = await signInWith(user, IMPORTED_PASSWORD).expect(200);
      expect(res.body.data.user).toMatchObject({ id: user.id, email: user.email });
      const cookie = sessionCookie(res)!;
      expect(cookie).toBeDefined();
      const after = await storedHash(user);
      expect(after.hash).toMatch(/^\$argon2id\$/);
      expect(after.hash).not.toBe(bcryptHash);
      // Not a change of the account: its updated_at stays.
      expect(after.updatedAt).toBe(before.updatedAt);

      // The same password against the new hash, which stays as it is now.
      await signInWith(user, IMPORTED_PASSWORD).expect(200);
      expect((await storedHash(user)).hash).toBe(after.hash);
      expect((await signInWith(user, 'not my pterodactyl password').expect(401)).body.code).toBe('INVALID_CREDENTIALS');
      // The session the upgrade happened in still works (it is not a password change).
      await t.http().get('/api/account').set('Cookie', cookie).expect(200);
    });

    it('should accept the bcrypt hash where the account confirms its password, and not write it back on save', async () => {
      const { user } = await importedUser();
      const cookie = await signIn(t, user.email, IMPORTED_PASSWORD);
      // Imported again under the signed-in session: the e-mail change is the first check of it.
      const bcryptHash = laravelBcrypt(IMPORTED_PASSWORD);
      await dataSource.query('UPDATE "user" SET password_hash = $1 WHERE id = $2', [bcryptHash, user.id]);
      const email = `renamed-${user.email}`;
      const res = await t.http().put('/api/account/email').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ email, password: IMPORTED_PASSWORD }).expect(200);
      expect(res.body.data.email).toBe(email);
      expect((await storedHash(user)).hash).toMatch(/^\$argon2id\$/);
      await t.http().post('/api/auth/sign-in/email').send({ email, password: IMPORTED_PASSWORD }).expect(200);
    });

    describe('SFTP password sign-in (POST /api/remote/sftp/auth)', () => {
      let auth: string;
      let egg: Awaited<ReturnType<typeof createEgg>>;
      let node: Awaited<ReturnType<typeof createNodeRow>>['node'];
      let nextIp = 1;
      const sftp = (username: string, password: string) =>
        t
          .http()
          .post('/api/remote/sftp/auth')
          .set('Authorization', auth)
          .send({ type: 'password', username, password, ip: `198.51.100.${nextIp++}:50000`, session_id: 'c2Vzc2lvbg==', client_version: 'U1NILTIuMA==' });

      beforeAll(async () => {
        egg = await createEgg(t.app, (await createNest(t.app)).id);
        const calling = await createNodeRow(t.app);
        node = calling.node;
        auth = `Bearer ${calling.node.tokenIdentifier}.${calling.token}`;
      });

      const serverOf = async (owner: UserEntity): Promise<ServerEntity> =>
        createServerRow(t.app, { node, egg, owner, allocation: await createAllocationRow(t.app, node) });

      it('should refuse a wrong password with 403 and keep the bcrypt hash, then let the owner in and replace it', async () => {
        const { user, bcryptHash } = await importedUser();
        const server = await serverOf(user);
        const login = `${user.username}.${server.identifier}`;

        const wrong = await sftp(login, 'not my pterodactyl password').expect(403);
        expect(wrong.body.code).toBe('SFTP_INVALID_CREDENTIALS');
        expect((await storedHash(user)).hash).toBe(bcryptHash);

        const res = await sftp(login, IMPORTED_PASSWORD).expect(200);
        expect(res.body).toEqual({ server: server.uuid, user: user.uuid, permissions: ['*'] });
        const upgraded = (await storedHash(user)).hash;
        expect(upgraded).toMatch(/^\$argon2id\$/);

        await sftp(login, IMPORTED_PASSWORD).expect(200);
        expect((await storedHash(user)).hash).toBe(upgraded);
        await signInWith(user, IMPORTED_PASSWORD).expect(200);
      });
    });
  });

  describe('bcrypt recovery codes', () => {
    /** Signs in, sets up and enables two-factor sign-in; answers the codes Hatchery made. */
    const enableTwoFactor = async (user: UserEntity, password: string): Promise<string[]> => {
      const cookie = await signIn(t, user.email, password);
      const setup = await t.http().post('/api/user/2fa/setup').set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(200);
      const now = t.clock.now().getTime();
      t.clock.advance(STEP_MS - (now % STEP_MS) + 1_000);
      const code = codeAt(setup.body.data.secret, t.clock.now().getTime());
      const res = await t.http().post('/api/user/2fa/enable').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ code }).expect(200);
      return res.body.data.recoveryCodes;
    };
    /** Adds recovery codes as the importer writes Pterodactyl's recovery_tokens: bcrypt of the code. */
    const importCodes = async (user: UserEntity, codes: string[]): Promise<string[]> => {
      const hashes = codes.map(laravelBcrypt);
      for (const hash of hashes) {
        await dataSource.query('INSERT INTO user_recovery_code (user_id, code_hash, created_at) VALUES ($1, $2, now())', [user.id, hash]);
      }
      return hashes;
    };
    const storedCodes = async (user: UserEntity): Promise<string[]> =>
      (await dataSource.query('SELECT code_hash FROM user_recovery_code WHERE user_id = $1 ORDER BY id', [user.id])).map((r: { code_hash: string }) => r.code_hash);

    it('should sign in once with an imported code, case kept, and keep the others and our own codes working', async () => {
      const { user } = await importedUser();
      const ownCodes = await enableTwoFactor(user, IMPORTED_PASSWORD);
      const [first, second, third] = ['aB3dE5fG7h', 'Zq9Wx8Vu7T', 'k2M4n6P8r0'];
      const hashes = await importCodes(user, [first, second, third]);
      // Stored as given, 60 characters, not padded to the column's 64.
      expect((await storedCodes(user)).slice(-3)).toEqual(hashes);

      const signedIn = await signInWith(user, IMPORTED_PASSWORD, first).expect(200);
      expect(sessionCookie(signedIn)).toBeDefined();
      expect(await storedCodes(user)).not.toContain(hashes[0]);
      expect(await storedCodes(user)).toHaveLength(ownCodes.length + 2);

      const reused = await signInWith(user, IMPORTED_PASSWORD, first).expect(401);
      expect(reused.body).toEqual(errorBody(401, 'TWO_FACTOR_INVALID', expect.any(String)));
      expect(sessionCookie(reused)).toBeUndefined();
      // Pterodactyl's codes are case-sensitive.
      expect((await signInWith(user, IMPORTED_PASSWORD, second.toLowerCase()).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');

      // Through the challenge step as well, once.
      const challenge = (await signInWith(user, IMPORTED_PASSWORD).expect(401)).body.details.challenge;
      await t.http().post('/api/auth/two-factor').send({ challenge, code: second }).expect(200);
      const again = (await signInWith(user, IMPORTED_PASSWORD).expect(401)).body.details.challenge;
      expect((await t.http().post('/api/auth/two-factor').send({ challenge: again, code: second }).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');

      // Our own codes are untouched by the imported ones.
      await signInWith(user, IMPORTED_PASSWORD, ownCodes[0]).expect(200);
      expect((await signInWith(user, IMPORTED_PASSWORD, ownCodes[0]).expect(401)).body.code).toBe('TWO_FACTOR_INVALID');
      await signInWith(user, IMPORTED_PASSWORD, third).expect(200);
      const left = await storedCodes(user);
      expect(left).toHaveLength(ownCodes.length - 1);
      expect(left.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
    });
  });
});
