import { createHash } from 'node:crypto';
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { IsEmail, IsInt, IsString, Max, MaxLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { Optional } from 'src/common/validation/decorators';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { ApplicationRoute, ClientRoute, PterodactylCaller, PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import type { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';
import { applicationKey, createPterodactylKey, NOT_FOUND, pterodactylError, PTERODACTYL_ACCEPT, UNAUTHENTICATED, UNAUTHORIZED } from 'test/utils/pterodactyl';

class ProbeBody {
  @IsEmail()
  email!: string;

  @IsString()
  @MaxLength(5)
  first_name!: string;

  @Optional()
  @IsInt()
  @Max(10)
  limit?: number;
}

/** Test-only routes of each family, to check the guard and the body validation by themselves. */
@PterodactylController()
@Controller(['api/application/probe', 'pterodactyl/api/application/probe'])
class ApplicationProbeController {
  @Get()
  @ApplicationRoute('users', 'read')
  read(@PterodactylCaller() key: ResolvedPterodactylKey): { object: string; attributes: { identifier: string } } {
    return { object: 'probe', attributes: { identifier: key.identifier } };
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('users', 'write')
  write(@PterodactylBody(ProbeBody) body: ProbeBody): { object: string; attributes: ProbeBody } {
    return { object: 'probe', attributes: { ...body } };
  }
}

@PterodactylController()
@Controller('pterodactyl/api/client/probe')
class ClientProbeController {
  @Get()
  @ClientRoute()
  read(@PterodactylCaller() key: ResolvedPterodactylKey): { object: string; attributes: { user: string } } {
    return { object: 'probe', attributes: { user: key.user.username } };
  }
}

const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

describe.each(dbKinds(['postgres']))('Pterodactyl keys (%s)', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ db, controllers: [ApplicationProbeController, ClientProbeController] });
  });

  afterAll(async () => {
    await t.close();
  });

  const get = (path: string, key?: string) => {
    const req = t.http().get(path).set('Accept', PTERODACTYL_ACCEPT);
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };

  const keyRow = async (identifier: string): Promise<Record<string, unknown>> => {
    const rows: Record<string, unknown>[] = await t.app.get(DataSource).query('SELECT * FROM pterodactyl_api_key WHERE identifier = $1', [identifier]);
    expect(rows).toHaveLength(1);
    return rows[0];
  };

  describe('creating them through Hatchery', () => {
    it('should show a client key once, in Pterodactyl format, and store only the hash of its token', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      const created = await createPterodactylKey(t, cookie, 'client', { description: 'discord bot', allowedIps: ['127.0.0.1', '10.0.0.0/8'] });
      expect(created).toEqual({
        identifier: expect.stringMatching(/^ptlc_[A-Za-z0-9]{11}$/),
        description: 'discord bot',
        allowedIps: ['127.0.0.1', '10.0.0.0/8'],
        lastUsedAt: null,
        createdAt: expect.any(String),
        key: expect.stringMatching(/^ptlc_[A-Za-z0-9]{43}$/),
      });
      expect(created.key.startsWith(created.identifier)).toBe(true);
      const row = await keyRow(created.identifier);
      expect(row.token_hash).toBe(sha256Hex(created.key.slice(16)));
      expect(JSON.stringify(row)).not.toContain(created.key.slice(16));
      const list = await t.http().get('/api/account/pterodactyl-keys').set('Cookie', cookie).expect(200);
      expect(list.body).toEqual({ data: [{ ...created, key: undefined }].map(({ key: _key, ...rest }) => rest) });
    });

    it('should give an administrator an application key with the permissions asked for, none by default', async () => {
      const { key, identifier, cookie } = await applicationKey(t, { users: 1, servers: 3 });
      expect(key).toMatch(/^ptla_[A-Za-z0-9]{43}$/);
      const list = await t.http().get('/api/admin/pterodactyl-keys').set('Cookie', cookie).expect(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({
          identifier,
          permissions: { servers: 3, nodes: 0, allocations: 0, users: 1, locations: 0, nests: 0, eggs: 0, database_hosts: 0, server_databases: 0 },
        }),
      ]);
      const plain = await createPterodactylKey(t, cookie, 'application');
      expect(plain.permissions).toEqual(expect.objectContaining({ users: 0, servers: 0 }));
    });

    it('should refuse application keys to a user who is not an administrator, and bad bodies with 400', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      await t.http().post('/api/admin/pterodactyl-keys').set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ description: 'x' }).expect(403);
      const bad = await t
        .http()
        .post('/api/account/pterodactyl-keys')
        .set('Cookie', cookie)
        .set('Origin', TEST_ORIGIN)
        .send({ description: 'x', allowedIps: ['not-an-ip'] })
        .expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    });

    it('should let a scope-limited Hatchery key create no Pterodactyl key', async () => {
      const admin = await createUser(t.app, { admin: true });
      const limited = await createApiKey(t, await signIn(t, admin.email), { permissions: ['users.read'] });
      await t.http().post('/api/admin/pterodactyl-keys').set('Authorization', `Bearer ${limited}`).send({ description: 'x' }).expect(403);
    });

    it('should revoke a key, after which it no longer authenticates, and 404 for a key that is not yours', async () => {
      const { key, identifier, cookie } = await applicationKey(t);
      await get('/api/application/probe', key).expect(200);
      const other = await signIn(t, (await createUser(t.app, { admin: true })).email);
      await t.http().delete(`/api/admin/pterodactyl-keys/${identifier}`).set('Cookie', other).set('Origin', TEST_ORIGIN).expect(404);
      await t.http().delete(`/api/admin/pterodactyl-keys/${identifier}`).set('Cookie', cookie).set('Origin', TEST_ORIGIN).expect(204);
      expect((await get('/api/application/probe', key).expect(401)).body).toEqual(UNAUTHENTICATED);
    });
  });

  describe('authenticating with them', () => {
    it('should answer an application key on both application paths and note when it was last used', async () => {
      const { key, identifier } = await applicationKey(t, { users: 1 });
      expect((await get('/api/application/probe', key).expect(200)).body).toEqual({ object: 'probe', attributes: { identifier } });
      await get('/pterodactyl/api/application/probe', key).expect(200);
      expect((await keyRow(identifier)).last_used_at).toEqual(t.clock.now());
    });

    it('should refuse a missing, malformed, wrong or foreign credential with 401 in Pterodactyl shape', async () => {
      const { key } = await applicationKey(t);
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      const client = (await createPterodactylKey(t, cookie, 'client')).key;
      const hatcheryKey = await createApiKey(t, await signIn(t, (await createUser(t.app, { admin: true })).email));
      for (const presented of [undefined, 'nonsense', `${key.slice(0, 47)}${key.endsWith('x') ? 'y' : 'x'}`, client, hatcheryKey]) {
        expect((await get('/api/application/probe', presented).expect(401)).body).toEqual(UNAUTHENTICATED);
      }
      // A session does not open the layer either.
      expect((await get('/api/application/probe').set('Cookie', cookie).expect(401)).body).toEqual(UNAUTHENTICATED);
    });

    it('should keep each key on its own API family, and Pterodactyl keys out of Hatchery', async () => {
      const { key } = await applicationKey(t);
      expect((await get('/pterodactyl/api/client/probe', key).expect(403)).body).toEqual(
        pterodactylError(403, 'AccessDeniedHttpException', 'You are attempting to use an application API key on an endpoint that requires a client API key.'),
      );
      const user = await createUser(t.app);
      const client = (await createPterodactylKey(t, await signIn(t, user.email), 'client')).key;
      expect((await get('/pterodactyl/api/client/probe', client).expect(200)).body).toEqual({ object: 'probe', attributes: { user: user.username } });
      await t.http().get('/api/account').set('Authorization', `Bearer ${client}`).expect(401);
      await t.http().get('/api/admin/users').set('Authorization', `Bearer ${key}`).expect(401);
    });

    it('should refuse a permission the key lacks, and a key whose owner is no longer an administrator', async () => {
      const { key, admin } = await applicationKey(t, { users: 1 });
      expect((await t.http().post('/api/application/probe').set('Authorization', `Bearer ${key}`).send({}).expect(403)).body).toEqual(UNAUTHORIZED);
      const none = (await applicationKey(t, {})).key;
      expect((await get('/api/application/probe', none).expect(403)).body).toEqual(UNAUTHORIZED);
      const other = await signIn(t, (await createUser(t.app, { admin: true })).email);
      await t.http().patch(`/api/admin/users/${admin.id}`).set('Cookie', other).set('Origin', TEST_ORIGIN).send({ admin: false }).expect(200);
      expect((await get('/api/application/probe', key).expect(403)).body).toEqual(
        pterodactylError(403, 'AccessDeniedHttpException', 'This account does not have permission to access the API.'),
      );
    });

    it("should refuse a suspended owner's keys until the suspension is lifted", async () => {
      const user = await createUser(t.app);
      const key = (await createPterodactylKey(t, await signIn(t, user.email), 'client')).key;
      const admin = await createUser(t.app, { admin: true });
      const adminCookie = await signIn(t, admin.email);
      await get('/pterodactyl/api/client/probe', key).expect(200);
      await t.http().post(`/api/admin/users/${user.id}/suspend`).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN).expect(200);
      expect((await get('/pterodactyl/api/client/probe', key).expect(403)).body).toEqual(
        pterodactylError(403, 'AccessDeniedHttpException', 'This account is suspended; an administrator can lift the suspension.'),
      );
      await t.http().post(`/api/admin/users/${user.id}/unsuspend`).set('Cookie', adminCookie).set('Origin', TEST_ORIGIN).expect(200);
      await get('/pterodactyl/api/client/probe', key).expect(200);
    });

    it('should allow a key only from its allowed addresses', async () => {
      const user = await createUser(t.app);
      const cookie = await signIn(t, user.email);
      const near = (await createPterodactylKey(t, cookie, 'client', { allowedIps: ['127.0.0.0/8'] })).key;
      const far = (await createPterodactylKey(t, cookie, 'client', { allowedIps: ['10.1.2.3', '192.168.0.0/16'] })).key;
      await get('/pterodactyl/api/client/probe', near).expect(200);
      const res = await get('/pterodactyl/api/client/probe', far).expect(403);
      expect(res.body).toEqual(
        pterodactylError(403, 'AccessDeniedHttpException', expect.stringMatching(/^This IP address \(.+\) does not have permission to access the API using these credentials\.$/)),
      );
      // A key refused for its address was not used: its last use stays empty.
      expect((await keyRow(far.slice(0, 16))).last_used_at).toBeNull();
    });
  });

  describe('Pterodactyl shapes for errors', () => {
    it('should answer unknown paths under both prefixes with a Pterodactyl 404', async () => {
      for (const path of ['/api/application/nope', '/pterodactyl/api/application/nope', '/pterodactyl/api/client/nope', '/pterodactyl', '/pterodactyl/x']) {
        const res = await get(path).expect(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('should answer a body that breaks the rules with 422, one error per field and rule', async () => {
      const { key } = await applicationKey(t);
      const res = await t
        .http()
        .post('/pterodactyl/api/application/probe')
        .set('Authorization', `Bearer ${key}`)
        .send({ email: 'not-an-email', first_name: 'toolong', limit: 11 })
        .expect(422);
      expect(res.body).toEqual({
        errors: [
          { code: 'ValidationException', status: '422', detail: 'The email must be a valid email address.', meta: { source_field: 'email', rule: 'email' } },
          {
            code: 'ValidationException',
            status: '422',
            detail: 'The first name must not be greater than 5 characters.',
            meta: { source_field: 'first_name', rule: 'max' },
          },
          { code: 'ValidationException', status: '422', detail: 'The limit must not be greater than 10.', meta: { source_field: 'limit', rule: 'max' } },
        ],
      });
      const missing = await t.http().post('/pterodactyl/api/application/probe').set('Authorization', `Bearer ${key}`).send({}).expect(422);
      expect(missing.body.errors.map((e: { detail: string; meta: unknown }) => [e.detail, e.meta])).toEqual([
        ['The email field is required.', { source_field: 'email', rule: 'required' }],
        ['The first name field is required.', { source_field: 'first_name', rule: 'required' }],
      ]);
    });

    it('should drop fields a route does not read instead of refusing them', async () => {
      const { key } = await applicationKey(t);
      const res = await t
        .http()
        .post('/api/application/probe')
        .set('Authorization', `Bearer ${key}`)
        .send({ email: 'a@example.test', first_name: 'Ann', language: 'en' })
        .expect(201);
      expect(res.body).toEqual({ object: 'probe', attributes: { email: 'a@example.test', first_name: 'Ann' } });
    });
  });
});
