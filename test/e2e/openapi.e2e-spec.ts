import Ajv from 'ajv';
import type { Response } from 'supertest';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { dbKinds } from 'test/utils/test-db';

type Operation = {
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

/** A schema that says something: a bare `{type: 'object'}` (what a handler typed as an object literal gets) does not. */
const meaningful = (schema: Record<string, unknown> | undefined): boolean =>
  schema !== undefined &&
  (schema.$ref !== undefined ||
    schema.properties !== undefined ||
    schema.items !== undefined ||
    schema.additionalProperties === true ||
    (schema.type !== undefined && schema.type !== 'object'));

/**
 * OpenAPI 3.0 writes a nullable reference as `{nullable: true, allOf: [{$ref}]}`; Ajv honours
 * `nullable` only beside `type`, so such a schema becomes "null, or the reference" for the check.
 */
const forAjv = (node: unknown): unknown => {
  if (Array.isArray(node)) {return node.map(forAjv);}
  if (node === null || typeof node !== 'object') {return node;}
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, forAjv(v)]));
  if (nullable === true && (rest.allOf !== undefined || rest.$ref !== undefined || rest.oneOf !== undefined)) {
    const { type: _type, ...inner } = converted;
    return { anyOf: [{ type: 'null' }, inner] };
  }
  return nullable === true ? { ...converted, nullable: true } : converted;
};

describe.each(dbKinds(['postgres']))('the OpenAPI document (%s)', (db) => {
  let t: TestApp;
  let doc: Document;

  beforeAll(async () => {
    t = await createTestApp({ db });
    doc = (await t.http().get('/api/docs.json').expect(200)).body;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('should declare a 2xx answer for every operation', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // A WebSocket upgrade succeeds with 101 and no body (GET /api/ws).
        // A sign-in provider's start and callback are browser navigations: a 302 with no body.
        const ok = Object.entries(op.responses ?? {}).filter(([status]) => /^(2\d\d|101)$/.test(status) || (status === '302' && path.startsWith('/api/auth/oauth/')));
        // 204, 202 and 101 may answer no body at all; any other 2xx says what its body is.
        const declared = ok.some(([status, r]) => (r.content === undefined ? ['101', '202', '204', '302'].includes(status) : Object.values(r.content).some((c) => meaningful(c.schema))));
        if (!declared) {missing.push(`${method.toUpperCase()} ${path}`);}
      }
    }
    expect(missing).toEqual([]);
  });

  it('should declare every path parameter of every operation, required', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(methods)) {
        const declared = new Set((op.parameters ?? []).filter((p) => p.in === 'path' && p.required === true).map((p) => p.name));
        for (const name of names.filter((n) => !declared.has(n))) {
          missing.push(`${method.toUpperCase()} ${path}: {${name}}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  /**
   * Checks a real answer against the schema the document declares for its route and status (JSON
   * Schema by Ajv, which reads OpenAPI's `nullable`); a field the handler adds or drops, or a wrong
   * type, fails here before it reaches the generated web client.
   */
  const expectDeclared = (method: string, route: string, res: Response): void => {
    const responses = doc.paths[route]?.[method]?.responses;
    expect(responses).toBeDefined();
    const declared = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`];
    const schema = declared?.content?.['application/json']?.schema;
    expect({ route, status: res.status, declared: schema !== undefined }).toEqual({ route, status: res.status, declared: true });
    const validate = ajv.compile(forAjv({ ...schema, components: doc.components }) as object);
    const valid = validate(res.body);
    expect({ route, status: res.status, errors: valid ? null : validate.errors }).toEqual({ route, status: res.status, errors: null });
  };
  let ajv: Ajv;

  it('should answer as it declares, on sample routes of every kind (public, account, admin, client, errors)', async () => {
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const admin = await createUser(t.app, { admin: true });
    const cookie = await signIn(t, admin.email);
    const as = (method: 'get' | 'post' | 'patch', path: string) => t.http()[method](path).set('Cookie', cookie).set('Origin', TEST_ORIGIN);

    expectDeclared('get', '/api/settings', await t.http().get('/api/settings').expect(200));
    expectDeclared('get', '/api/health', await t.http().get('/api/health').expect(200));
    expectDeclared('get', '/api/auth/captcha', await t.http().get('/api/auth/captcha').expect(200));
    expectDeclared('post', '/api/auth/sign-in/email', await t.http().post('/api/auth/sign-in/email').send({ email: admin.email, password: 'not it' }).expect(401));
    expectDeclared('post', '/api/auth/sign-in/email', await t.http().post('/api/auth/sign-in/email').send({ email: 42 }).expect(400));
    expectDeclared('get', '/api/auth/session', await as('get', '/api/auth/session').expect(200));
    expectDeclared('get', '/api/account', await as('get', '/api/account').expect(200));
    expectDeclared('get', '/api/account/sessions', await as('get', '/api/account/sessions').expect(200));
    expectDeclared('post', '/api/account/api-keys', await as('post', '/api/account/api-keys').send({ name: 'doc' }).expect(201));
    expectDeclared('get', '/api/account/api-keys', await as('get', '/api/account/api-keys').expect(200));
    expectDeclared('get', '/api/account/activity', await as('get', '/api/account/activity').expect(200));
    expectDeclared('post', '/api/user/2fa/setup', await as('post', '/api/user/2fa/setup').expect(200));

    expectDeclared('get', '/api/admin/users', await as('get', '/api/admin/users').expect(200));
    expectDeclared('get', '/api/admin/users/{id}', await as('get', `/api/admin/users/${admin.id}`).expect(200));
    const location = await as('post', '/api/admin/locations').send({ short: 'doc', long: 'Docs lab' }).expect(201);
    expectDeclared('post', '/api/admin/locations', location);
    const node = await as('post', '/api/admin/nodes')
      .send({ name: 'doc', fqdn: '127.0.0.1', scheme: 'http', daemonListen: 1, memory: 1024, disk: 1024, locationId: location.body.data.id })
      .expect(201);
    expectDeclared('post', '/api/admin/nodes', node);
    expectDeclared('patch', '/api/admin/nodes/{id}', await as('patch', `/api/admin/nodes/${node.body.data.id}`).send({ name: 'doc 2' }).expect(200));
    expectDeclared('post', '/api/admin/nodes/{id}/allocations', await as('post', `/api/admin/nodes/${node.body.data.id}/allocations`).send({ ip: '0.0.0.0', ports: ['30000'] }).expect(201));
    expectDeclared('get', '/api/admin/nodes/{id}/allocations', await as('get', `/api/admin/nodes/${node.body.data.id}/allocations`).expect(200));
    const nest = await as('post', '/api/admin/nests').send({ name: 'Docs' }).expect(201);
    expectDeclared('post', '/api/admin/nests', nest);
    expectDeclared('get', '/api/admin/nests', await as('get', '/api/admin/nests').expect(200));
    expectDeclared('get', '/api/admin/eggs', await as('get', '/api/admin/eggs').expect(200));
    expectDeclared('get', '/api/admin/audit-logs', await as('get', '/api/admin/audit-logs').expect(200));

    expectDeclared('get', '/api/client/servers', await as('get', '/api/client/servers').expect(200));
    expectDeclared('get', '/api/client/permissions', await as('get', '/api/client/permissions').expect(200));
    expectDeclared('get', '/api/client/servers/{server}', await as('get', '/api/client/servers/abcdef12').expect(404));
  });

  it('should fail the check when an answer does not match (the check itself works)', () => {
    const res = { status: 200, body: { data: { appName: 'x', registrationEnabled: 'yes', fileEditMaxMiB: 4, captcha: null } } } as unknown as Response;
    expect(() => expectDeclared('get', '/api/settings', res)).toThrow();
  });
});
