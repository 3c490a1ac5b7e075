import type { Response } from 'supertest';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { READ_PERMISSIONS } from 'src/modules/servers/server-context';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';
import { Ctx, prepareClientRoutes, ROWS, serverRoutes } from 'test/utils/client-route-rows';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { MariaDb, mariadbAvailable, reserveServerIds } from 'test/utils/mariadb';
import type { RouteInfo } from 'test/utils/routes';
import { Requester, SimPanel, startSimPanel } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

/**
 * Every client route on `{server}` called as anonymous (401), an
 * unrelated user (404), a subuser holding every permission but the route's (403), a subuser holding
 * only the route's permission (2xx; plus a row's `also`, e.g. the permission a schedule task's action
 * needs), the owner and an admin (2xx), and an admin's API key holding
 * only servers.read or only servers.write (the route's permission is a read or a write,
 * and the key without that scope gets 403 MISSING_SCOPE). The rows are checked against
 * the routes the app registers, so a new route without a row fails this file.
 */

describe('the permission matrix rows', () => {
  it('should have a row for every client route on {server}, and no row for a route that does not exist', () => {
    const keys = serverRoutes().map((r) => r.key);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => !(k in ROWS))).toEqual([]);
    expect(Object.keys(ROWS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('should find a server permission declared on every client route on {server}', () => {
    expect(serverRoutes().filter((r) => r.permission === undefined).map((r) => r.key)).toEqual([]);
  });
});

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

(hasPaper && mariadbAvailable() ? describe : describe.skip).each(dbKinds(['postgres']))('every client route on {server}, by caller (%s)', (db) => {
  let c: Ctx;
  /** Set as soon as the panel runs, so afterAll stops it even when the setup after it fails. */
  let panel: SimPanel | undefined;
  let mariadb: MariaDb;
  let firstServerId: number;
  let closeFiles: (() => Promise<void>) | undefined;
  const callers = new Map<string, Requester>();
  let anonymous: Requester;
  let stranger: Requester;
  const routes = serverRoutes();

  /** One subuser per permission that holds only it, and one that holds everything else. */
  const subuserHolding = async (p: SimPanel, base: string, permissions: string[]): Promise<Requester> => {
    const account = await p.newUser();
    await p.asOwner('post', `${base}/users`).send({ email: account.user.email, permissions }).expect(201);
    return account.as;
  };

  /** The subuser holding only the route's permission, and what its request needs beside it. */
  const onlyKey = (route: (typeof routes)[number]): string => ['only', route.permission, ...(ROWS[route.key].also ?? [])].join(':');

  beforeAll(async () => {
    const p = await startSimPanel(db, { overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }] });
    panel = p;
    // Database routes need a real host; this file's s{id}_ names stay in a block of its own.
    mariadb = await MariaDb.connect();
    firstServerId = await reserveServerIds(p.t, mariadb);
    const prepared = await prepareClientRoutes(p);
    c = prepared.c;
    closeFiles = prepared.close;
    const { base } = c;

    anonymous = (method, path) => p.t.http()[method](path);
    // An admin's keys limited to one server scope, on a server their owner neither owns nor shares.
    const keyedAdmin = await p.newUser({ admin: true });
    for (const scope of ['servers.read', 'servers.write']) {
      const key = (await keyedAdmin.as('post', '/api/account/api-keys').send({ name: scope, permissions: [scope] }).expect(201)).body.data.key as string;
      callers.set(`key:${scope}`, (method, path) => p.t.http()[method](path).set('x-api-key', key));
    }
    stranger = (await p.newUser()).as;
    for (const route of routes) {
      if (!callers.has(onlyKey(route))) {
        callers.set(onlyKey(route), await subuserHolding(p, base, [route.permission!, ...(ROWS[route.key].also ?? [])]));
      }
    }
    for (const permission of new Set(routes.map((r) => r.permission!))) {
      if (permission !== 'server.view') {
        callers.set(`allBut:${permission}`, await subuserHolding(p, base, ALL_SERVER_PERMISSIONS.filter((x) => x !== permission)));
      }
    }
  });

  afterAll(async () => {
    await mariadb?.dropLeftoversOf(Array.from({ length: 1_000 }, (_v, i) => String(firstServerId - 1 + i)));
    await mariadb?.close();
    await panel?.close();
    await closeFiles?.();
  });

  const call = async (route: RouteInfo, as: Requester): Promise<Response> => ROWS[route.key].send(c, as);
  const expectStatus = (res: Response, status: number): Response => {
    expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status });
    return res;
  };

  describe.each(routes.map((r) => [r.key, r] as const))('%s', (_key, route) => {
    it('should answer 401 to an anonymous caller', async () => {
      expect(expectStatus(await call(route, anonymous), 401).body.code).toBe('UNAUTHENTICATED');
    });

    it('should answer 404 to a signed-in user with no access to the server', async () => {
      expect(expectStatus(await call(route, stranger), 404).body.code).toBe('SERVER_NOT_FOUND');
    });

    it(`should answer 403 to a subuser holding every permission but ${route.permission}`, async () => {
      if (route.permission === 'server.view') {
        // Every subuser holds server.view: it comes with being a subuser, so it cannot be withheld.
        return;
      }
      const res = expectStatus(await call(route, callers.get(`allBut:${route.permission}`)!), 403);
      expect(res.body).toMatchObject({ code: 'SERVER_PERMISSION_DENIED', message: expect.stringContaining(route.permission!) });
    });

    const read = READ_PERMISSIONS.includes(route.permission!);
    it(`should let ${read ? 'a servers.read' : 'a servers.write'} admin key through, and refuse ${read ? 'a servers.write' : 'a servers.read'} one with 403 MISSING_SCOPE`, async () => {
      const [allowed, refused] = read ? ['servers.read', 'servers.write'] : ['servers.write', 'servers.read'];
      const denied = expectStatus(await call(route, callers.get(`key:${refused}`)!), 403);
      expect(denied.body).toMatchObject({ code: 'MISSING_SCOPE', message: `The API key lacks the ${allowed} scope this action requires` });
      const expected = ROWS[route.key].status;
      const res = await call(route, callers.get(`key:${allowed}`)!);
      expect({ status: res.status, body: res.status === expected ? undefined : res.body }).toEqual({ status: expected, body: undefined });
    });

    it(`should let a subuser holding only ${route.permission} through, and the owner and an admin`, async () => {
      const expected = ROWS[route.key].status;
      for (const [who, as] of [
        ['subuser', callers.get(onlyKey(route))!],
        ['owner', c.p.asOwner],
        ['admin', c.p.admin],
      ] as const) {
        const res = await call(route, as);
        expect({ who, status: res.status, body: res.status === expected ? undefined : res.body }).toEqual({ who, status: expected, body: undefined });
      }
    });
  });
});
