import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { AppModule } from 'src/app.module';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { ALL_APPLICATION_PERMISSIONS, createPterodactylKey } from 'test/utils/pterodactyl';
import { TEST_ORIGIN } from 'test/utils/create-test-app';
import { EGG_FIXTURES_DIR, eggFixtureFiles } from 'test/utils/fixtures';
import { listRoutes, RouteInfo } from 'test/utils/routes';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

/**
 * Generated hostile requests (wrong types, deep nesting, NUL, huge numbers, `__proto__` and unknown
 * keys, long strings, arrays for objects, odd query strings and path parameters) against every route the app
 * registers, as an admin, a server owner, anonymous and (on /api/remote) the node; none may answer 5xx or stall.
 * The seed is fixed so a run is repeatable; HATCHERY_FUZZ_SEED and HATCHERY_FUZZ_RUNS explore further, and a failure
 * prints the seed and path fast-check needs to replay it.
 */

const SEED = Number(process.env.HATCHERY_FUZZ_SEED ?? 15);
const RUNS = Number(process.env.HATCHERY_FUZZ_RUNS ?? 12);
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const MISSING_ID = '999999';

type Caller = 'admin' | 'owner' | 'anonymous' | 'node' | 'pterodactyl';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

// ---------------------------------------------------------------------------------------------------------------
// Hostile JSON, built as a tree so keys such as __proto__ survive to the wire and numbers JSON cannot hold get sent

type Tree = { raw: string } | { arr: Tree[] } | { obj: [string, Tree][] } | string | number | boolean | null;

const serialize = (t: Tree): string => {
  if (t === null || typeof t !== 'object') {
    return JSON.stringify(t) ?? 'null';
  }
  if ('raw' in t) {
    return t.raw;
  }
  if ('arr' in t) {
    return `[${t.arr.map(serialize).join(',')}]`;
  }
  return `{${t.obj.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(',')}}`;
};

const LONG_STRINGS = ['a'.repeat(70_000), '\u{1F600}'.repeat(5_000), ' '.repeat(5_000), '9'.repeat(5_000)];
const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  '../../../etc/passwd',
  '%00',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '\u202e\u200b',
  '\ud800',
  '{{server.build.default.port}}',
  '${jndi:ldap://x}',
  '-1',
  '0',
  '1e400',
  'true',
  'null',
  '*',
  '/',
  '0-0',
  '25565-99999',
  'SHA256:abc',
  MISSING_UUID,
  MISSING_ID,
];
const HUGE_NUMBERS = ['1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '9007199254740993', '1.7976931348623157e308', '0.1e1'];

/** Percent-encoding for a URL; a lone surrogate (no UTF-8 form) becomes the invalid bytes a hostile client sends. */
const encode = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s].map((ch) => (/^[\ud800-\udfff]$/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
};

/** Long generated text, cut for messages: its start and end, and how much was left out. */
const clip = (text: string | null, keep = 200): string | null =>
  text === null || text.length <= keep * 2 ? text : `${text.slice(0, keep)}…(${text.length - keep * 2} more)…${text.slice(-keep)}`;

const deepText = (depth: number, open: string, close: string): string => `${open.repeat(depth)}${close.repeat(depth)}`;

const scalar: fc.Arbitrary<Tree> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_STRINGS) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMBERS).map((raw): Tree => ({ raw })) },
  { weight: 1, arbitrary: fc.bigInt().map((n): Tree => ({ raw: n.toString() })) },
  // Nesting inside a field: at, just past and far past the limit the parser enforces.
  { weight: 1, arbitrary: fc.constantFrom(28, 31, 33, 1_000, 40_000).map((d): Tree => ({ raw: deepText(d, '[', ']') })) },
);

const hostileKey = (known: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    ...(known.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'admin', 'id', 'k\u0000', '', 'a'.repeat(5_000)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

const treeOf = (known: string[]): fc.Arbitrary<Tree> =>
  fc.letrec<{ value: Tree; arr: Tree; obj: Tree }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('arr'), tie('obj')),
    arr: fc.array(tie('value'), { maxLength: 4 }).map((arr) => ({ arr })),
    obj: fc.array(fc.tuple(hostileKey(known), tie('value')), { maxLength: 4 }).map((obj) => ({ obj })),
  })).value;

/** A body: mostly an object of the route's own fields with hostile values, else anything JSON (or not) can carry. */
const bodyOf = (known: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(hostileKey(known), treeOf(known)), { maxLength: 6 }).map((obj) => serialize({ obj })) },
    { weight: 2, arbitrary: treeOf(known).map(serialize) },
    // A whole body nested deep: arrays as the issue found them, objects, at and past the limit.
    { weight: 3, arbitrary: fc.constantFrom(33, 20_000, 500_000).map((d) => deepText(d, '[', ']')) },
    { weight: 2, arbitrary: fc.constantFrom(33, 20_000, 100_000).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        '"a string"',
        '42',
        'null',
        '{"a":',
        '\u0000',
        '{"a":"\\u0000"}',
      ),
    },
  );

const QUERY_VALUES = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...NASTY_STRINGS, ...HUGE_NUMBERS, 'a'.repeat(10_000)));

const queryOf = (known: string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(hostileKey([...known, 'page', 'perPage']), QUERY_VALUES), { maxLength: 3 })
    .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));

// ---------------------------------------------------------------------------------------------------------------
// What each route takes, read from the metadata Nest routes by

interface RouteArg {
  type: RouteParamtypes;
  dto?: unknown;
}

const argsOf = (route: RouteInfo): RouteArg[] => {
  const proto = route.controller.prototype as Record<string, unknown>;
  const name = Object.getOwnPropertyNames(proto).find((n) => proto[n] === route.handler) as string;
  const meta = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, name) ?? {}) as Record<string, { index: number }>;
  const types = (Reflect.getMetadata('design:paramtypes', route.controller.prototype, name) ?? []) as unknown[];
  return Object.entries(meta).map(([key, { index }]) => ({ type: Number(key.split(':')[0]), dto: types[index] }));
};

const rulesOf = (dto: unknown): ValidationMetadata[] =>
  typeof dto === 'function' ? getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false) : [];

const fieldsOf = (dto: unknown): string[] => [...new Set(rulesOf(dto).map((m) => m.propertyName))];

const EXTREME_INTS = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53), 1e15];
const ID_STRINGS = ['1', '0', '-1', MISSING_ID, '9223372036854775807', '9223372036854775808', '99999999999999999999999', MISSING_UUID];

/**
 * A value of the kind a field's own rules ask for, at and past their edges (lengths at the cap, integers past 32 and
 * 64 bits, ids that do not exist), often enough valid that requests get past validation into the services behind.
 */
const valueFor = (rules: ValidationMetadata[]): fc.Arbitrary<unknown> => {
  const named = (name: string) => rules.find((r) => r.name === name);
  const bound = (name: string): number | undefined => named(name)?.constraints?.[0] as number | undefined;
  const isIn = named('isIn');
  if (isIn) {
    return fc.constantFrom(...(isIn.constraints[0] as unknown[]));
  }
  if (named('isInt') || named('isNumber') || named('min') || named('max')) {
    const edges = [bound('min'), bound('max')].filter((n): n is number => typeof n === 'number').flatMap((n) => [n, n - 1, n + 1]);
    return fc.oneof(fc.integer(), fc.constantFrom(...EXTREME_INTS, ...edges));
  }
  if (named('isBoolean')) {
    return fc.boolean();
  }
  if (named('isArray')) {
    return fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...ID_STRINGS)), { maxLength: 4 });
  }
  const max = bound('maxLength');
  const min = bound('minLength');
  return fc.oneof(
    fc.string({ minLength: min ?? 0, maxLength: Math.min(max ?? 24, 24) }),
    fc.constantFrom(...ID_STRINGS, 'user@example.test', 'https://example.test/x', '127.0.0.1', '0-1', '/'),
    ...(max !== undefined ? [fc.constantFrom('a'.repeat(max), '\u{1F600}'.repeat(max))] : []),
  );
};

/** A body of the DTO's own fields, each with a value of its kind; any of them may be left out. */
const typedBodyOf = (dto: unknown): fc.Arbitrary<string> | undefined => {
  const rules = rulesOf(dto);
  const fields = [...new Set(rules.map((m) => m.propertyName))];
  if (fields.length === 0) {
    return undefined;
  }
  const model = Object.fromEntries(fields.map((f) => [f, valueFor(rules.filter((r) => r.propertyName === f))]));
  return fc.record(model, { requiredKeys: [] }).map((body) => JSON.stringify(body));
};

// ---------------------------------------------------------------------------------------------------------------

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('hostile requests on every route (%s)', (db) => {
  let p: SimPanel;
  const sessions: Record<'admin' | 'owner', { email: string; cookie: string }> = { admin: { email: '', cookie: '' }, owner: { email: '', cookie: '' } };
  let nodeAuth = '';
  /** An application key with every permission, for the Pterodactyl layer's routes. */
  let pterodactylKey = '';
  /** Values that get a request past routing and the guards to the validation and the service behind. */
  const ids: Record<string, string> = {};

  const request = (caller: Caller, method: Method, path: string) => {
    const req = p.t.http()[method](path).timeout({ response: 15_000 });
    if (caller === 'admin' || caller === 'owner') {
      return req.set('Cookie', sessions[caller].cookie).set('Origin', TEST_ORIGIN);
    }
    if (caller === 'pterodactyl') {
      return req.set('Authorization', `Bearer ${pterodactylKey}`);
    }
    return caller === 'node' ? req.set('Authorization', nodeAuth) : req;
  };
  const admin = (method: Method, path: string) => request('admin', method, path);
  const owner = (method: Method, path: string) => request('owner', method, path);

  /** Sign-out, session revocation and the like may end a caller's session; the next route gets a fresh one. */
  const keepSignedIn = async (): Promise<void> => {
    for (const who of ['admin', 'owner'] as const) {
      if ((await request(who, 'get', '/api/auth/session')).status === 401) {
        sessions[who].cookie = await signIn(p.t, sessions[who].email);
      }
    }
  };

  beforeAll(async () => {
    p = await startSimPanel(db);
    const adminUser = await createUser(p.t.app, { admin: true });
    const ownerUser = await createUser(p.t.app);
    sessions.admin = { email: adminUser.email, cookie: await signIn(p.t, adminUser.email) };
    sessions.owner = { email: ownerUser.email, cookie: await signIn(p.t, ownerUser.email) };
    const key = await createApiKey(p.t, sessions.admin.cookie, { permissions: ['nodes.read'] });
    const config = (await p.t.http().get(`/api/admin/daemon/nodes/${p.nodeId}/configuration`).set('Authorization', `Bearer ${key}`).expect(200)).body.data;
    nodeAuth = `Bearer ${config.token_id}.${config.token}`;
    pterodactylKey = (await createPterodactylKey(p.t, sessions.admin.cookie, 'application', { permissions: ALL_APPLICATION_PERMISSIONS })).key;

    const server = await p.createServer({ name: 'Fuzzed', owner_id: ownerUser.id, backup_limit: 5 });
    // Admin server routes suspend, reinstall and delete: they get a server of their own.
    const decoyServer = await p.createServer({ name: 'Decoy', owner_id: ownerUser.id });
    for (const id of [server.id, decoyServer.id]) {
      await p.installed(id);
    }
    const base = `/api/client/servers/${server.uuid}`;
    const schedule = (await owner('post', `${base}/schedules`).send({ name: 'Nightly', cron: { minute: '0', hour: '4', day_of_month: '*', month: '*', day_of_week: '*' } }).expect(201)).body.data;
    const task = (await owner('post', `${base}/schedules/${schedule.id}/tasks`).send({ action: 'command', payload: 'say hi' }).expect(201)).body.data;
    const backup = (await owner('post', `${base}/backups`).send({ name: 'fuzz' }).expect(201)).body.data;
    const subuser = await createUser(p.t.app);
    const sub = (await owner('post', `${base}/users`).send({ email: subuser.email, permissions: [] }).expect(201)).body.data;
    const variables = (await admin('get', `/api/admin/eggs/${p.eggId}/variables`).expect(200)).body.data;
    const egg = (await admin('get', `/api/admin/eggs/${p.eggId}`).expect(200)).body.data;
    const location = (await admin('get', '/api/admin/locations').expect(200)).body.data[0];
    const allocations = (await admin('get', `/api/admin/nodes/${p.nodeId}/allocations?perPage=100`).expect(200)).body.data;
    // Resources that writes may change or delete, so that the ones above keep answering.
    const decoyUser = await createUser(p.t.app);
    const decoyNest = (await admin('post', '/api/admin/nests').send({ name: 'Decoy' }).expect(201)).body.data;
    const paper = JSON.parse(readFileSync(join(EGG_FIXTURES_DIR, 'egg-paper.json'), 'utf8'));
    const decoyEgg = (await admin('post', `/api/admin/eggs/import?nestId=${decoyNest.id}`).send(paper).expect(201)).body.data;
    const decoyLocation = (await admin('post', '/api/admin/locations').send({ short: 'decoy', long: 'Decoy' }).expect(201)).body.data;
    const decoyNode = (
      await admin('post', '/api/admin/nodes')
        .send({ name: 'decoy', fqdn: '127.0.0.1', scheme: 'http', daemonListen: 9, memory: 1024, disk: 1024, locationId: decoyLocation.id })
        .expect(201)
    ).body.data;
    await waitFor(async () => (await owner('get', `${base}/backups/${backup.id}`).expect(200)).body.data.status === 'successful');

    Object.assign(ids, {
      server: server.uuid,
      uuid: server.uuid,
      schedule: schedule.id,
      task: task.id,
      backup: backup.id,
      user: sub.id,
      egg: decoyEgg.id,
      variable: decoyEgg.variables[0].id,
      allocation: allocations.find((a: { serverId?: string | null }) => !a.serverId)?.id ?? MISSING_ID,
      'GET egg': egg.id,
      'GET variable': variables[0].id,
      '/api/admin/users': decoyUser.id,
      '/api/admin/nests': decoyNest.id,
      'GET /api/admin/nests': egg.nestId,
      '/api/admin/locations': decoyLocation.id,
      'GET /api/admin/locations': location.id,
      '/api/admin/nodes': decoyNode.id,
      'GET /api/admin/nodes': p.nodeId,
      'GET /api/admin/daemon/nodes': p.nodeId,
      '/api/admin/servers': decoyServer.id,
    });
  });

  afterAll(async () => {
    await p?.close();
  });

  /** The route's own resource for a parameter, when one was set up for it. */
  const realValue = (route: RouteInfo, param: string): string | undefined => {
    if (param !== 'id') {
      return ids[`${route.method} ${param}`] ?? ids[param];
    }
    const prefix = route.path.slice(0, route.path.indexOf('/:id'));
    return ids[`${route.method} ${prefix}`] ?? ids[prefix];
  };

  const pathOf = (route: RouteInfo): fc.Arbitrary<string> => {
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    const values = params.map((param) => {
      const real = realValue(route, param);
      const plausible = fc.constantFrom(MISSING_ID, MISSING_UUID, '1');
      const hostile = fc.oneof(fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== ''), 'x'.repeat(300)), fc.string({ minLength: 1, maxLength: 12 }));
      return fc.oneof(...(real ? [{ weight: 6, arbitrary: fc.constant(real) }] : []), { weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: hostile });
    });
    return fc.tuple(...values).map((chosen) => {
      let i = 0;
      return route.path.replace(/:(\w+)/g, () => encode(chosen[i++]));
    });
  };

  const routes = listRoutes(AppModule);

  it('should find the routes to fuzz', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  describe.each(routes.map((r) => [r.key, r] as const))('%s', (_key, route) => {
    it('should answer no request with a 5xx', async () => {
      const args = argsOf(route);
      // The Pterodactyl layer reads its bodies through a decorator of its own (a custom route argument).
      const bodyDto = args.find((a) => a.type === RouteParamtypes.BODY)?.dto ?? args.find((a) => Number.isNaN(a.type) && rulesOf(a.dto).length > 0)?.dto;
      const bodyFields = fieldsOf(bodyDto);
      const typed = typedBodyOf(bodyDto);
      const body = typed ? fc.oneof({ weight: 1, arbitrary: typed }, { weight: 1, arbitrary: bodyOf(bodyFields) }) : bodyOf(bodyFields);
      const queryFields = args.filter((a) => a.type === RouteParamtypes.QUERY).flatMap((a) => fieldsOf(a.dto));
      const remote = route.path.startsWith('/api/remote/');
      const pterodactyl = route.path.startsWith('/api/application/') || route.path.startsWith('/pterodactyl/');
      const caller: fc.Arbitrary<Caller> = remote
        ? fc.constantFrom<Caller>('node', 'node', 'node', 'node', 'admin', 'anonymous')
        : pterodactyl
          ? fc.constantFrom<Caller>('pterodactyl', 'pterodactyl', 'pterodactyl', 'admin', 'anonymous')
          : fc.constantFrom<Caller>('admin', 'admin', 'owner', 'owner', 'anonymous');
      const method = route.method.toLowerCase() as Method;
      const sample = fc
        .record({
          caller,
          path: pathOf(route),
          query: fc.option(queryOf(queryFields), { freq: 2 }),
          body: method === 'get' ? fc.constant(null) : fc.option(body, { freq: 8 }),
          contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        })
        // fast-check prints the counterexample: bodies of half a MiB are cut to what a reader can use.
        .map((c) => ({ ...c, [fc.toStringMethod]: () => JSON.stringify({ ...c, query: clip(c.query), body: clip(c.body) }) }));
      await fc.assert(
        fc.asyncProperty(sample, async ({ caller: who, path, query, body, contentType }) => {
          const url = query ? `${path}?${query}` : path;
          let req = request(who, method, url);
          if (body !== null) {
            req = req.set('Content-Type', contentType).send(body);
          }
          let res: Response;
          try {
            res = await req;
          } catch (e) {
            throw new Error(`${route.method} ${clip(url)} as ${who} did not answer: ${String(e)}\nbody: ${clip(body)}`);
          }
          // The daemon's own 5xx (Wings refuses a command to a stopped server with 502) is relayed with its
          // status (docs/api.md#daemon-errors); that is the daemon's answer, not the panel failing on the input.
          const relayed = res.body?.code === 'DAEMON_HTTP_ERROR' && res.body?.details?.status === res.status;
          if (res.status >= 500 && !relayed) {
            throw new Error(
              `${route.method} ${clip(url)} as ${who} answered ${res.status}\n` +
                `body (${contentType}): ${clip(body)}\nresponse: ${clip(JSON.stringify(res.body))}`,
            );
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      await keepSignedIn();
    });
  });
});
