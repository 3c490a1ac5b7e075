import * as bcrypt from 'bcryptjs';
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

// Users imported from a Pterodactyl panel keep its credentials: a bcrypt password hash (Laravel's `$2y$10$…`).

const IMPORTED_PASSWORD = 'my pterodactyl password';

/** A hash as Laravel's Hash::make writes it: bcrypt at cost 10, with PHP's `$2y$` prefix. */
const laravelBcrypt = (secret: string): string => bcrypt.hashSync(secret, 10).replace(/^\$2b\$/, '$2y$');

const errorBody = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });

describe.each(dbKinds(['postgres', 'pglite']))('credentials imported from Pterodactyl (%s)', (db) => {
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
});
