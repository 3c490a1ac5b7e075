import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { AppModule } from 'src/app.module';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { createPterodactylKey, PTERODACTYL_ACCEPT } from 'test/utils/pterodactyl';
import { listRoutes, RouteInfo } from 'test/utils/routes';
import { SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

/**
 * The hostile-bodies fuzzer signs in with sessions, which the Pterodactyl layer does not accept (every
 * request is a 401 before its body is read), and finds bodies only through Nest's @Body(). This one
 * sends generated hostile bodies, queries and path parameters to every client route of the layer
 * with a real client key, reading each route's fields from its @PterodactylBody DTO: none may answer 5xx.
 */

const SEED = Number(process.env.HATCHERY_FUZZ_SEED ?? 19);
const RUNS = Number(process.env.HATCHERY_FUZZ_RUNS ?? 15);
const NASTY = ['\u0000', '', ' ', '../../../etc/passwd', '%00', "' OR 1=1 --", '\ud800', '{{env.X}}', '-1', '0', '1e400', 'null', '*', '/', 'a'.repeat(70_000)];

const encode = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

const scalar = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.constantFrom<unknown>(...NASTY),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom<unknown>(123456789012345678901234567890n.toString(), Number.MAX_SAFE_INTEGER + 2),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('v'), { maxKeys: 3 })),
})).v;

/** The DTO class a route's @PterodactylBody validates against (a custom param decorator keeps it as its data). */
const fieldsOf = (route: RouteInfo): string[] => {
  const proto = route.controller.prototype as Record<string, unknown>;
  const name = Object.getOwnPropertyNames(proto).find((n) => proto[n] === route.handler) as string;
  const meta = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, name) ?? {}) as Record<string, { data?: unknown }>;
  const dto = Object.values(meta).find((m) => typeof m.data === 'function')?.data as (new () => object) | undefined;
  if (!dto) {
    return [];
  }
  return [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];
};

const bodyOf = (fields: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .array(fc.tuple(fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), fc.constantFrom('__proto__', 'constructor')) : fc.string({ maxLength: 8 }), value), { maxLength: 6 })
        .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('[]', '"text"', '42', 'null', '{"a":', `${'['.repeat(5_000)}${']'.repeat(5_000)}`, 'plain words') },
  );

const DAEMON_ROUTE = /\/(command|power|files|backups|resources|websocket|settings\/reinstall)\b/;

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('Pterodactyl client API under hostile input (%s)', (db) => {
  let p: SimPanel;
  let key: string;
  let identifier: string;

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer({ name: 'Hostile', backup_limit: 2, database_limit: 1 });
    await p.installed(server.id);
    identifier = (await p.asOwner('get', `/api/client/servers/${server.uuid}`).expect(200)).body.data.identifier;
    key = (await createPterodactylKey(p.t, p.ownerCookie, 'client')).key;
  });

  afterAll(async () => {
    await p?.close();
  });

  const routes = listRoutes(AppModule).filter((r) => r.path.startsWith('/pterodactyl/api/client'));

  it('should find the client routes', () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  describe.each(routes.map((r) => [r.key, r] as const))('%s', (_key, route) => {
    it('should answer no request with a 5xx', async () => {
      const fields = fieldsOf(route);
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const params = (route.path.match(/:(\w+)/g) ?? []).map((name) =>
        name === ':server' ? fc.oneof({ weight: 5, arbitrary: fc.constant(identifier) }, { weight: 1, arbitrary: fc.constantFrom(...NASTY.slice(0, 8)) }) : fc.oneof(fc.constantFrom(...NASTY.slice(0, 12)), fc.string({ maxLength: 10 }), fc.constant('1')),
      );
      const sample = fc.record({
        path: fc.tuple(...params).map((chosen) => {
          let i = 0;
          return route.path.replace(/:(\w+)/g, () => encode(String(chosen[i++])));
        }),
        query: fc.array(
          fc.oneof(
            fc.tuple(fc.constantFrom('file', 'directory', 'page', 'per_page', 'filter[*]', 'filter[name]', 'filter[uuid]'), fc.constantFrom(...NASTY, '0.0.0.0', ':2556', '1')),
            fc.tuple(fc.constantFrom('type', 'include'), fc.constantFrom('admin', 'admin-all', 'owner', 'egg', 'password', ...NASTY.slice(0, 4))),
          ),
          { maxLength: 3 },
        ),
        body: method === 'get' ? fc.constant(null) : fc.option(bodyOf(fields), { freq: 8 }),
        contentType: fc.constantFrom('application/json', 'application/json', 'text/plain'),
      });
      await fc.assert(
        fc.asyncProperty(sample, async ({ path, query, body, contentType }) => {
          const qs = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
          const url = qs ? `${path}?${qs}` : path;
          let req = p.t.http()[method](url).set('Accept', PTERODACTYL_ACCEPT).set('Authorization', `Bearer ${key}`);
          if (body !== null) {
            req = req.set('Content-Type', contentType).send(body);
          }
          const res: Response = await req;
          // A node's own 502 (Wings refuses a command to a stopped server) is relayed with its status: the daemon's answer, not the panel failing.
          const relayed = res.status === 502 && DAEMON_ROUTE.test(route.path);
          if (res.status >= 500 && !relayed) {
            throw new Error(`${route.method} ${url.slice(0, 300)} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}\nbody: ${String(body).slice(0, 300)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  });
});
