import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { NestEntity } from 'src/modules/eggs/nest.entity';
import { UserEntity } from 'src/modules/users/user.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { MINUTE } from 'test/utils/fake-clock';
import { dbKinds } from 'test/utils/test-db';

const NESTS = '/api/admin/nests';
const EGGS = '/api/admin/eggs';
const AUDIT = '/api/admin/audit-logs';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

type Method = 'get' | 'post' | 'patch' | 'delete';
// Untyped JSON documents and response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const denial = (statusCode: number, code: string, message: string) => ({ statusCode, code, message, requestId: expect.any(String) });
const expectError = (res: Response, statusCode: number, code: string, message: string): void => {
  expect([res.status, res.body]).toEqual([statusCode, denial(statusCode, code, message)]);
};
const expectValidation = (res: Response, details: unknown): void => {
  expect([res.status, res.body]).toEqual([
    400,
    { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details, requestId: expect.any(String) },
  ]);
};
const ADMIN_REQUIRED = denial(403, 'ADMIN_REQUIRED', 'This action requires an administrator');
const missingScope = (scope: string) => denial(403, 'MISSING_SCOPE', `The API key lacks the ${scope} scope this action requires`);

const nestBody = (nest: NestEntity): Json => ({
  id: nest.id,
  name: nest.name,
  description: nest.description,
  author: nest.author,
  createdAt: nest.createdAt.toISOString(),
  updatedAt: nest.updatedAt.toISOString(),
});

const countRows = async (t: TestApp, table: 'nest' | 'egg' | 'audit_log'): Promise<number> =>
  (await t.app.get(DataSource).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

describe.each(dbKinds(['postgres']))('admin nests (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let cookie: string;

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const state = async () => ({ nests: await countRows(t, 'nest'), audit: await countRows(t, 'audit_log') });
  const loadNest = (id: string) => t.app.get(DataSource).getRepository(NestEntity).findOneBy({ id });
  const auditOf = async (id: string): Promise<Json[]> =>
    (await as('get', `${AUDIT}?targetType=nest&targetId=${id}`).expect(200)).body.data;
  const auditEntry = (action: string, id: string, changes: Json): Json => ({
    id: expect.stringMatching(/^[1-9]\d*$/),
    actor: { id: admin.id, username: admin.username, via: 'session' },
    action,
    target: { type: 'nest', id, name: expect.any(String), parentId: null },
    changes,
    ip: expect.stringMatching(LOOPBACK),
    createdAt: t.clock.now().toISOString(),
  });

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('should answer 201 with the nest and leave a nest.created entry when an admin creates a nest', async () => {
      const before = await state();
      const res = await as('post', NESTS).send({ name: 'Minecraft', description: 'Minecraft - the classic game from Mojang.', author: 'support@pterodactyl.io' }).expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(UUID),
          name: 'Minecraft',
          description: 'Minecraft - the classic game from Mojang.',
          author: 'support@pterodactyl.io',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      const stored = (await loadNest(res.body.data.id))!;
      expect(res.body.data).toEqual(nestBody(stored));
      expect(await state()).toEqual({ nests: before.nests + 1, audit: before.audit + 1 });
      expect(await auditOf(stored.id)).toEqual([
        auditEntry('nest.created', stored.id, {
          after: { name: 'Minecraft', description: 'Minecraft - the classic game from Mojang.', author: 'support@pterodactyl.io' },
        }),
      ]);
    });

    it("should default the author to the admin's e-mail and the description to null when only a name is given", async () => {
      const res = await as('post', NESTS).send({ name: 'Rust' }).expect(201);
      expect(res.body.data).toMatchObject({ name: 'Rust', description: null, author: admin.email });
      expect((await auditOf(res.body.data.id))[0].changes).toEqual({ after: { name: 'Rust', description: null, author: admin.email } });
    });

    it.each([
      ['no name', {}, [{ field: 'name', message: 'name must be a string' }]],
      ['an empty name', { name: '' }, [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }]],
      ['a name of 192 characters', { name: 'n'.repeat(192) }, [{ field: 'name', message: 'name must be shorter than or equal to 191 characters' }]],
      ['a numeric description', { name: 'x', description: 5 }, [{ field: 'description', message: 'description must be a string' }]],
      ['an empty author', { name: 'x', author: '' }, [{ field: 'author', message: 'author must be longer than or equal to 1 characters' }]],
      ['an unknown field', { name: 'x', eggs: [] }, [{ field: 'eggs', message: 'property eggs should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and add no nest nor audit entry when the body has %s', async (_label, body, details) => {
      const before = await state();
      expectValidation(await as('post', NESTS).send(body), details);
      expect(await state()).toEqual(before);
    });
  });

  describe('read', () => {
    it('should answer one nest by id and list nests oldest first with pagination', async () => {
      const nest = await createNest(t.app);
      expect((await as('get', `${NESTS}/${nest.id}`).expect(200)).body).toEqual({ data: nestBody(nest) });
      const total = await countRows(t, 'nest');
      const list = await as('get', `${NESTS}?perPage=100`).expect(200);
      expect(list.body.meta).toEqual({ pagination: { total, count: total, perPage: 100, currentPage: 1, totalPages: 1 } });
      expect(list.body.data.at(-1)).toEqual(nestBody(nest));
    });

    it.each([MISSING_UUID, 'not-a-uuid'])('should answer 404 NEST_NOT_FOUND on get, patch and delete when the nest is %s', async (id) => {
      for (const method of ['get', 'patch', 'delete'] as const) {
        expectError(await as(method, `${NESTS}/${id}`).send(method === 'patch' ? { name: 'x' } : undefined), 404, 'NEST_NOT_FOUND', 'Nest not found');
      }
    });
  });

  describe('update', () => {
    it('should change the sent fields and leave a nest.updated entry with only the changed fields when patched', async () => {
      const nest = await createNest(t.app, { description: 'old' });
      const before = await state();
      const res = await as('patch', `${NESTS}/${nest.id}`).send({ name: 'Renamed', description: 'old', author: 'new@example.test' }).expect(200);
      const stored = (await loadNest(nest.id))!;
      expect(res.body).toEqual({ data: nestBody(stored) });
      expect(stored).toMatchObject({ name: 'Renamed', description: 'old', author: 'new@example.test' });
      expect(await state()).toEqual({ ...before, audit: before.audit + 1 });
      expect(await auditOf(nest.id)).toEqual([
        auditEntry('nest.updated', nest.id, {
          before: { name: nest.name, author: nest.author },
          after: { name: 'Renamed', author: 'new@example.test' },
        }),
      ]);
    });

    it('should clear the description when patched with null', async () => {
      const nest = await createNest(t.app, { description: 'to clear' });
      const res = await as('patch', `${NESTS}/${nest.id}`).send({ description: null }).expect(200);
      expect(res.body.data.description).toBeNull();
      expect((await auditOf(nest.id))[0].changes).toEqual({ before: { description: 'to clear' }, after: { description: null } });
    });

    it('should answer 200 and leave no audit entry when a patch changes nothing', async () => {
      const nest = await createNest(t.app);
      const before = await state();
      await as('patch', `${NESTS}/${nest.id}`).send({ name: nest.name }).expect(200);
      expect(await state()).toEqual(before);
    });

    it.each([
      ['a null name', { name: null }, [{ field: 'name', message: 'name must be a string' }]],
      ['an empty name', { name: '' }, [{ field: 'name', message: 'name must be longer than or equal to 1 characters' }]],
      ['a null author', { author: null }, [{ field: 'author', message: 'author must be a string' }]],
      ['an unknown field', { id: MISSING_UUID }, [{ field: 'id', message: 'property id should not exist' }]],
    ])('should answer 400 VALIDATION_FAILED and change nothing when a patch has %s', async (_label, body, details) => {
      const nest = await createNest(t.app);
      const before = await state();
      expectValidation(await as('patch', `${NESTS}/${nest.id}`).send(body), details);
      expect(nestBody((await loadNest(nest.id))!)).toEqual(nestBody(nest));
      expect(await state()).toEqual(before);
    });
  });

  describe('delete', () => {
    it('should answer 204 and leave a nest.deleted entry with the old fields when an empty nest is deleted', async () => {
      const nest = await createNest(t.app, { description: 'bye' });
      const before = await state();
      const res = await as('delete', `${NESTS}/${nest.id}`).expect(204);
      expect(res.text).toBe('');
      expect(await loadNest(nest.id)).toBeNull();
      expect(await state()).toEqual({ nests: before.nests - 1, audit: before.audit + 1 });
      expect(await auditOf(nest.id)).toEqual([
        auditEntry('nest.deleted', nest.id, { before: { name: nest.name, description: 'bye', author: nest.author } }),
      ]);
      expectError(await as('delete', `${NESTS}/${nest.id}`), 404, 'NEST_NOT_FOUND', 'Nest not found');
    });

    it('should answer 409 NEST_HAS_EGGS and keep the nest and its egg and add no audit entry when the nest has an egg', async () => {
      const nest = await createNest(t.app);
      const egg = await createEgg(t.app, nest.id);
      const before = await state();
      expectError(await as('delete', `${NESTS}/${nest.id}`), 409, 'NEST_HAS_EGGS', 'The nest still has eggs and cannot be deleted');
      expect(await loadNest(nest.id)).not.toBeNull();
      expect(await state()).toEqual(before);
      // Once its egg is gone, the nest can go.
      await as('delete', `${EGGS}/${egg.id}`).expect(204);
      await as('delete', `${NESTS}/${nest.id}`).expect(204);
    });
  });

  describe('authorization', () => {
    const writes = async (): Promise<[Method, string, object?][]> => {
      const nest = await createNest(t.app);
      return [
        ['post', NESTS, { name: 'Intruder' }],
        ['patch', `${NESTS}/${nest.id}`, { name: 'Hijacked' }],
        ['delete', `${NESTS}/${nest.id}`],
      ];
    };

    it('should answer 403 ADMIN_REQUIRED on every nest route and change nothing when the session is not an admin', async () => {
      const user = await createUser(t.app);
      const userCookie = await signIn(t, user.email);
      const routes = [...(await writes()), ['get', NESTS] as [Method, string]];
      const before = await state();
      for (const [method, path, body] of routes) {
        const res = await as(method, path, userCookie).send(body);
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, ADMIN_REQUIRED]);
      }
      expect(await state()).toEqual(before);
    });

    it('should allow reads but answer 403 MISSING_SCOPE on every write and change nothing when an admin key holds only eggs.read', async () => {
      const res = await as('post', '/api/account/api-keys').send({ name: 'nests', permissions: ['eggs.read'] }).expect(201);
      const key: string = res.body.data.key;
      await t.http().get(NESTS).set('x-api-key', key).expect(200);
      const routes = await writes();
      const before = await state();
      for (const [method, path, body] of routes) {
        const denied = await t.http()[method](path).set('x-api-key', key).send(body);
        expect([method, path, denied.status, denied.body]).toEqual([method, path, 403, missingScope('eggs.write')]);
      }
      expect(await state()).toEqual(before);
    });

    it('should answer 403 MISSING_SCOPE eggs.read when an admin key without egg scopes lists nests', async () => {
      const res = await as('post', '/api/account/api-keys').send({ name: 'users only', permissions: ['users.read'] }).expect(201);
      expect((await t.http().get(NESTS).set('x-api-key', res.body.data.key)).body).toEqual(missingScope('eggs.read'));
    });

    it('should record api-key:<identifier> as the actor when an admin key with eggs.write creates a nest', async () => {
      const res = await as('post', '/api/account/api-keys').send({ name: 'writer', permissions: ['eggs.write'] }).expect(201);
      const { key, identifier } = res.body.data;
      const created = await t.http().post(NESTS).set('Authorization', `Bearer ${key}`).send({ name: 'By Key' }).expect(201);
      expect((await auditOf(created.body.data.id))[0].actor).toEqual({ id: admin.id, username: admin.username, via: `api-key:${identifier}` });
    });
  });
});

describe.each(dbKinds(['postgres']))('audit log (%s)', (db) => {
  let t: TestApp;
  let admin: UserEntity;
  let other: UserEntity;
  let cookie: string;
  let otherCookie: string;
  /** The entries written in beforeAll, oldest first. */
  let written: { action: string; targetType: string; targetId: string; actorId: string; at: string }[];

  const as = (method: Method, path: string, c = cookie) => t.http()[method](path).set('Cookie', c).set('Origin', TEST_ORIGIN);
  const list = async (query = ''): Promise<Json> => (await as('get', `${AUDIT}${query}`).expect(200)).body;
  const summary = (entries: Json[]) => entries.map((e) => [e.action, e.target.type, e.target.id, e.actor.id, e.createdAt]);
  const expected = (rows: typeof written) => [...rows].reverse().map((w) => [w.action, w.targetType, w.targetId, w.actorId, w.at]);

  beforeAll(async () => {
    t = await createTestApp({ db });
    admin = await createUser(t.app, { admin: true });
    other = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
    otherCookie = await signIn(t, other.email);
    written = [];
    const record = (action: string, targetType: string, targetId: string, actor: UserEntity) => {
      written.push({ action, targetType, targetId, actorId: actor.id, at: t.clock.now().toISOString() });
      t.clock.advance(MINUTE);
    };
    const nest = (await as('post', NESTS).send({ name: 'Audited' }).expect(201)).body.data;
    record('nest.created', 'nest', nest.id, admin);
    const egg = (await as('post', EGGS, otherCookie).send({ nestId: nest.id, name: 'E', dockerImage: 'img', startup: 'run' }).expect(201)).body.data;
    record('egg.created', 'egg', egg.id, other);
    const variable = (await as('post', `${EGGS}/${egg.id}/variables`).send({ name: 'V', envVariable: 'V_VAR' }).expect(201)).body.data;
    record('egg.variable.created', 'egg_variable', variable.id, admin);
    await as('patch', `${EGGS}/${egg.id}`, otherCookie).send({ name: 'E2' }).expect(200);
    record('egg.updated', 'egg', egg.id, other);
    await as('patch', `${NESTS}/${nest.id}`).send({ name: 'Audited 2' }).expect(200);
    record('nest.updated', 'nest', nest.id, admin);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should list every entry newest first with pagination meta when no filter is given', async () => {
    const body = await list();
    expect(summary(body.data)).toEqual(expected(written));
    expect(body.meta).toEqual({ pagination: { total: 5, count: 5, perPage: 50, currentPage: 1, totalPages: 1 } });
    for (const entry of body.data as Json[]) {
      expect(Object.keys(entry).sort()).toEqual(['action', 'actor', 'changes', 'createdAt', 'id', 'ip', 'target']);
      expect(entry.ip).toMatch(LOOPBACK);
    }
  });

  it('should page through the entries when page and perPage are given', async () => {
    const body = await list('?page=2&perPage=2');
    expect(summary(body.data)).toEqual(expected(written).slice(2, 4));
    expect(body.meta).toEqual({ pagination: { total: 5, count: 2, perPage: 2, currentPage: 2, totalPages: 3 } });
  });

  it.each([
    ['action', () => '?action=egg.created', () => written.filter((w) => w.action === 'egg.created')],
    ['actorId', () => `?actorId=${other.id}`, () => written.filter((w) => w.actorId === other.id)],
    ['targetType', () => '?targetType=nest', () => written.filter((w) => w.targetType === 'nest')],
    ['targetId', () => `?targetId=${written[1].targetId}`, () => written.filter((w) => w.targetId === written[1].targetId)],
    [
      'targetType, targetId and action together',
      () => `?targetType=egg&targetId=${written[1].targetId}&action=egg.updated`,
      () => written.filter((w) => w.action === 'egg.updated'),
    ],
    ['an action nobody took', () => '?action=egg.deleted', () => []],
  ])('should answer only the matching entries when filtered by %s', async (_label, query, rows) => {
    const body = await list(query());
    expect(summary(body.data)).toEqual(expected(rows()));
    expect(body.meta.pagination.total).toBe(rows().length);
  });

  it.each([
    ['actorId=abc', [{ field: 'actorId', message: 'actorId must be a user id' }]],
    ['perPage=101', [{ field: 'perPage', message: 'perPage must not be greater than 100' }]],
    ['sort=id', [{ field: 'sort', message: 'property sort should not exist' }]],
  ])('should answer 400 VALIDATION_FAILED when the query has %s', async (query, details) => {
    expectValidation(await as('get', `${AUDIT}?${query}`), details);
  });

  it('should answer 403 MISSING_SCOPE audit.read when an admin key holds only the egg scopes', async () => {
    const res = await as('post', '/api/account/api-keys').send({ name: 'eggs', permissions: ['eggs.read', 'eggs.write'] }).expect(201);
    expect((await t.http().get(AUDIT).set('x-api-key', res.body.data.key)).body).toEqual(missingScope('audit.read'));
  });

  it("should answer the entries when an admin key holds audit.read, the audit log's own scope", async () => {
    const res = await as('post', '/api/account/api-keys').send({ name: 'auditor', permissions: ['audit.read'] }).expect(201);
    const body = (await t.http().get(AUDIT).set('x-api-key', res.body.data.key).expect(200)).body;
    expect(summary(body.data)).toEqual(expected(written));
  });

  it('should answer 403 ADMIN_REQUIRED when the session is not an admin', async () => {
    const user = await createUser(t.app);
    expect((await as('get', AUDIT, await signIn(t, user.email))).body).toEqual(ADMIN_REQUIRED);
  });

  it('should keep the entries with the username but no actor id when the acting user is deleted', async () => {
    const leaver = await createUser(t.app, { admin: true });
    const created = await as('post', NESTS, await signIn(t, leaver.email)).send({ name: 'Left Behind' }).expect(201);
    await as('delete', `/api/admin/users/${leaver.id}`).expect(204);
    const [entry] = (await list(`?targetId=${created.body.data.id}`)).data;
    expect(entry.actor).toEqual({ id: null, username: leaver.username, via: 'session' });
    expect(entry.action).toBe('nest.created');
  });
});
