import type { Response } from 'supertest';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { DEFAULT_PASSWORD, createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { dbKinds } from 'test/utils/test-db';

/** `depth` arrays inside each other: `[[[...]]]`. */
const nested = (depth: number, inner = ''): string => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

/** Nearly the 1 MiB body cap of `[`s and `]`s: deep enough that any recursive step overflows the stack. */
const HALF_MIB = 512 * 1024 - 16;

const NUL_MESSAGE = (field: string) => `${field} must not contain the NUL character (\\u0000)`;

describe.each(dbKinds(['postgres']))('hostile input: deep nesting and NUL characters (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  const logs = new LogCapture();

  const as = (method: 'get' | 'post' | 'patch', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);
  const expectBody = (res: Response, status: number, body: Record<string, unknown>): void => {
    expect([res.status, res.body]).toEqual([status, { statusCode: status, ...body, requestId: expect.any(String) }]);
  };
  const expectNulRefused = (res: Response, fields: string[]): void => {
    expectBody(res, 400, { code: 'VALIDATION_FAILED', message: 'Validation failed', details: fields.map((field) => ({ field, message: NUL_MESSAGE(field) })) });
  };
  /** Log lines at error level (pino: 50) or above, which is where an unhandled error and its stack go. */
  const errorLines = () => logs.lines().filter((l) => typeof l.level === 'number' && l.level >= 50);

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('nesting', () => {
    it.each([
      ['an anonymous sign-in', 'post', '/api/auth/sign-in/email', false],
      ['an admin write', 'post', '/api/admin/nests', true],
    ] as const)('should answer 400 JSON_TOO_DEEP when %s sends half a MiB of nested arrays', async (_label, method, path, signedIn) => {
      const req = signedIn ? as(method, path) : t.http()[method](path);
      const res = await req.set('Content-Type', 'application/json').send(nested(HALF_MIB));
      expectBody(res, 400, { code: 'JSON_TOO_DEEP', message: 'The request body nests deeper than 32 levels' });
      expect(errorLines()).toEqual([]);
    });

    it('should answer 400 JSON_TOO_DEEP for objects 33 deep, counting neither brackets in strings nor escaped quotes', async () => {
      const deep = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{"s":"[[[{{{\\"]]]"}${'}'.repeat(depth - 1)}`;
      const res = await t.http().post('/api/auth/sign-in/email').set('Content-Type', 'application/json').send(deep(33));
      expectBody(res, 400, { code: 'JSON_TOO_DEEP', message: 'The request body nests deeper than 32 levels' });
      // 32 deep is parsed and reaches validation, which names the unknown field.
      const ok = await t.http().post('/api/auth/sign-in/email').set('Content-Type', 'application/json').send(deep(32));
      expect([ok.status, ok.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    });

    it('should let a field hold arrays 31 deep through to validation when the body itself is the 32nd level', async () => {
      const res = await t.http().post('/api/auth/sign-in/email').set('Content-Type', 'application/json').send(`{"email":${nested(31, '"x"')},"password":"p"}`);
      expectBody(res, 400, { code: 'VALIDATION_FAILED', message: 'Validation failed', details: [{ field: 'email', message: 'email must be a string' }] });
    });
  });

  describe('NUL characters', () => {
    it('should answer 400 VALIDATION_FAILED naming the field and log no error when the sign-in e-mail holds a NUL', async () => {
      const user = await createUser(t.app);
      const res = await t.http().post('/api/auth/sign-in/email').send({ email: `${user.email}\u0000`, password: DEFAULT_PASSWORD });
      expectNulRefused(res, ['email']);
      expect(errorLines()).toEqual([]);
    });

    it('should answer 400 and create nothing when a name holds a NUL', async () => {
      const before = (await as('get', '/api/admin/nests').expect(200)).body.meta.pagination.total;
      expectNulRefused(await as('post', '/api/admin/nests').send({ name: 'Mine\u0000craft' }), ['name']);
      expectNulRefused(await as('post', '/api/account/api-keys').send({ name: 'key\u0000' }), ['name']);
      expect((await as('get', '/api/admin/nests').expect(200)).body.meta.pagination.total).toBe(before);
      expect(errorLines()).toEqual([]);
    });

    it('should name nested fields, array items and keys that hold a NUL', async () => {
      const res = await as('post', '/api/admin/nests').send({ name: 'ok', deep: { list: ['fine', 'bad\u0000'] }, 'k\u0000ey': 1 });
      expectNulRefused(res, ['deep.list.1', 'k\\u0000ey']);
    });

    it('should not mistake an escaped backslash followed by u0000 for a NUL', async () => {
      const res = await as('post', '/api/admin/nests').set('Content-Type', 'application/json').send('{"name":"C:\\\\u0000"}');
      expect([res.status, res.body.data?.name]).toEqual([201, 'C:\\u0000']);
    });

    it('should answer 400 VALIDATION_FAILED and log no error when a path parameter or a query string holds a NUL', async () => {
      expectNulRefused(await as('get', '/api/client/servers/ab%00cdef'), ['server']);
      expectNulRefused(await as('get', '/api/admin/audit-logs?action=egg%00.updated'), ['action']);
      expectNulRefused(await as('get', '/api/admin/audit-logs?ac%00tion=x'), ['ac\\u0000tion']);
      expect(errorLines()).toEqual([]);
    });
  });
});

/** Lone UTF-16 surrogates, which JSON can escape (`"\ud800"`) and PostgreSQL cannot store: a jsonb write failed with 500. */
describe.each(dbKinds(['pglite', 'postgres']))('hostile input: lone surrogates (%s)', (db) => {
  let t: TestApp;
  let cookie: string;
  const logs = new LogCapture();

  const LONE = (field: string) => `${field} must not contain a lone surrogate (\\ud800 to \\udfff without its pair): it is not valid Unicode text`;
  /** `body` is JSON text as the client wrote it, escapes and all. */
  const send = (method: 'post' | 'patch', path: string, body: string, signedIn = true) => {
    const req = t.http()[method](path).set('Content-Type', 'application/json');
    return (signedIn ? req.set('Cookie', cookie).set('Origin', TEST_ORIGIN) : req).send(body);
  };
  const expectRefused = (res: Response, fields: string[]): void => {
    expect([res.status, res.body]).toEqual([
      400,
      { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details: fields.map((field) => ({ field, message: LONE(field) })), requestId: expect.any(String) },
    ]);
  };
  const errorLines = () => logs.lines().filter((l) => typeof l.level === 'number' && l.level >= 50);

  beforeAll(async () => {
    t = await createTestApp({ db, logStream: logs });
    const admin = await createUser(t.app, { admin: true });
    cookie = await signIn(t, admin.email);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should answer 400 naming the field, and write nothing, on routes that store the string in jsonb', async () => {
    const nest = await createNest(t.app);
    const egg = await createEgg(t.app, nest.id);
    // An egg's features are a jsonb column; a nest's name goes to the audit log's jsonb metadata.
    expectRefused(await send('patch', `/api/admin/eggs/${egg.id}`, '{"features":["eula","\\ud800"]}'), ['features.1']);
    expectRefused(await send('post', '/api/admin/nests', '{"name":"Mine\\uDBFFcraft"}'), ['name']);
    expectRefused(await send('post', '/api/admin/nests', '{"name":"tail \\udc00"}'), ['name']);
    const stored = await t.http().get(`/api/admin/eggs/${egg.id}`).set('Cookie', cookie).expect(200);
    expect(stored.body.data.features).toEqual(['eula']);
    expect(errorLines()).toEqual([]);
  });

  it('should answer 400 on an anonymous route, in keys and nested fields, naming each', async () => {
    expectRefused(await send('post', '/api/auth/sign-in/email', '{"email":"a\\ud800@example.test","password":"x"}', false), ['email']);
    expectRefused(await send('post', '/api/account/api-keys', '{"name":"ok","deep":{"list":["fine","\\ud83d"]},"k\\udfffey":1}'), ['deep.list.1', 'k\\udfffey']);
    expect(errorLines()).toEqual([]);
  });

  it('should take a surrogate pair, and an escaped backslash before ud800, as ordinary text', async () => {
    const pair = await send('post', '/api/admin/nests', '{"name":"Smile \\ud83d\\ude00"}');
    expect([pair.status, pair.body.data?.name]).toEqual([201, 'Smile \u{1F600}']);
    const escaped = await send('post', '/api/admin/nests', '{"name":"C:\\\\ud800"}');
    expect([escaped.status, escaped.body.data?.name]).toEqual([201, 'C:\\ud800']);
  });
});
