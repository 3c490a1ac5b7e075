import { randomBytes } from 'node:crypto';
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import Redis from 'ioredis';
import { Public } from 'src/common/auth/authenticated.decorator';
import type { Response } from 'supertest';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser, DEFAULT_PASSWORD } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { isCi } from 'test/setup/test-env';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A client address no other call in this file has used, through a trusted proxy's X-Forwarded-For: counted
 * up from a random start (random addresses could meet one that an earlier test had spent, as one run saw).
 */
let lastIp = randomBytes(2).readUInt16BE() % 32_768;
const newIp = (): string => {
  lastIp += 1;
  return `198.18.${(lastIp >> 8) & 255}.${lastIp & 255}`;
};

interface Row {
  rule: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  limit: number;
  windowMs: number;
  /** False where a wider rule on the same path still holds after this row's window (shown in its own test). */
  resets?: boolean;
}

/**
 * Some rate-limited paths (docs/api.md#rate-limits) have no route in this panel. Rules bind routes (a path no route
 * matches counts against the global rule), so these rows are shown on routes mounted for the test.
 */
@Controller('api')
@Public()
class RowRoutesController {
  @Post('auth/password/request')
  @HttpCode(204)
  passwordRequest(): void {}

  @Post('auth/password/reset')
  @HttpCode(204)
  passwordReset(): void {}

  @Get('daemon/anything')
  daemon(): { data: string } {
    return { data: 'ok' };
  }

  @Get('servers/anything')
  servers(): { data: string } {
    return { data: 'ok' };
  }

  /** A public route no rule of its own covers (the health check, which was one, has no limit). */
  @Get('unruled/anything')
  unruled(): { data: string } {
    return { data: 'ok' };
  }
}

/** One request per rate limit that the limit alone decides (the tightest rule on its path). */
const ROWS: Row[] = [
  { rule: 'global', method: 'get', path: '/api/unruled/anything', limit: 150, windowMs: 300_000 },
  { rule: '/api/auth/**', method: 'get', path: '/api/auth/session', limit: 45, windowMs: 300_000 },
  { rule: '/api/auth/sign-in/** (username)', method: 'post', path: '/api/auth/sign-in/username', limit: 5, windowMs: 600_000 },
  { rule: 'sign-in by e-mail', method: 'post', path: '/api/auth/sign-in/email', limit: 3, windowMs: 10_000, resets: false },
  { rule: '/api/auth/two-factor', method: 'post', path: '/api/auth/two-factor', limit: 10, windowMs: 300_000 },
  { rule: '/api/auth/forget-password', method: 'post', path: '/api/auth/forget-password', limit: 5, windowMs: 900_000 },
  { rule: '/api/auth/reset-password', method: 'post', path: '/api/auth/reset-password', limit: 8, windowMs: 900_000 },
  { rule: '/api/auth/password/request', method: 'post', path: '/api/auth/password/request', limit: 5, windowMs: 900_000 },
  { rule: '/api/auth/password/reset', method: 'post', path: '/api/auth/password/reset', limit: 8, windowMs: 900_000 },
  { rule: '/api/user/2fa/**', method: 'post', path: '/api/user/2fa/setup', limit: 8, windowMs: 300_000 },
  { rule: '/api/account/password/**', method: 'put', path: '/api/account/password', limit: 8, windowMs: 300_000 },
  { rule: '/api/account/email', method: 'put', path: '/api/account/email', limit: 8, windowMs: 300_000 },
  { rule: '/api/account/sessions/**', method: 'get', path: '/api/account/sessions', limit: 15, windowMs: 300_000 },
  { rule: '/api/account/api-keys/**', method: 'get', path: '/api/account/api-keys', limit: 20, windowMs: 300_000 },
  { rule: 'API key create', method: 'post', path: '/api/account/api-keys', limit: 10, windowMs: 60_000, resets: false },
  { rule: '/api/settings', method: 'get', path: '/api/settings', limit: 60, windowMs: 60_000 },
  { rule: '/api/admin/**', method: 'get', path: '/api/admin/users', limit: 300, windowMs: 60_000 },
  { rule: '/api/daemon/**', method: 'get', path: '/api/daemon/anything', limit: 300, windowMs: 60_000 },
  { rule: '/api/servers/**', method: 'get', path: '/api/servers/anything', limit: 300, windowMs: 60_000 },
  { rule: '/api/client/**', method: 'get', path: '/api/client/servers', limit: 300, windowMs: 60_000 },
];

describe.each(dbKinds(['postgres']))('rate limits, memory store (%s)', (db) => {
  let t: TestApp;

  const call = (row: Pick<Row, 'method' | 'path'>, ip: string) => t.http()[row.method](row.path).set('X-Forwarded-For', ip).send({});
  const expectHeaders = (res: Response, limit: number, remaining: number, resetAt: number) => {
    expect({
      limit: res.headers['x-ratelimit-limit'],
      remaining: res.headers['x-ratelimit-remaining'],
      reset: res.headers['x-ratelimit-reset'],
    }).toEqual({ limit: String(limit), remaining: String(remaining), reset: String(Math.ceil(resetAt / 1000)) });
  };

  beforeAll(async () => {
    t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true', TRUSTED_PROXIES: 'loopback' }, controllers: [RowRoutesController] });
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each(ROWS.map((r) => [r.rule, r] as const))('%s: the request after the limit gets 429 with the headers, and the window resets', async (_rule, row) => {
    const ip = newIp();
    const opened = t.clock.now().getTime();
    for (let i = 1; i <= row.limit; i += 1) {
      const res = await call(row, ip);
      expect(res.status).not.toBe(429);
      if (i === 1 || i === row.limit) {
        expectHeaders(res, row.limit, row.limit - i, opened + row.windowMs);
      }
    }
    const limited = await call(row, ip);
    expect([limited.status, limited.body]).toEqual([
      429,
      { statusCode: 429, code: 'RATE_LIMITED', message: 'Rate limit exceeded, try again later', requestId: expect.any(String) },
    ]);
    expectHeaders(limited, row.limit, 0, opened + row.windowMs);
    expect(Number(limited.headers['retry-after'])).toBe(Math.ceil(row.windowMs / 1000));
    // Another client is not held back by it.
    expect((await call(row, newIp())).status).not.toBe(429);

    t.clock.advance(row.windowMs);
    const reset = await call(row, ip);
    expect(reset.status).not.toBe(429);
    if (row.resets === false) {
      return;
    }
    expectHeaders(reset, row.limit, row.limit - 1, opened + 2 * row.windowMs);
  });

  it('should count every rule a path falls under: after the e-mail window resets, the 5 per 10 minutes sign-in rule still holds', async () => {
    const ip = newIp();
    const row = { method: 'post', path: '/api/auth/sign-in/email' } as const;
    for (let i = 0; i < 3; i += 1) {
      expect((await call(row, ip)).status).not.toBe(429);
    }
    expect((await call(row, ip)).status).toBe(429);
    t.clock.advance(10_000);
    expect((await call(row, ip)).status).not.toBe(429);
    const fifth = await call(row, ip);
    // The tightest rule now is sign-in: 5 per 10 minutes, with the 4th request refused but counted.
    expect(fifth.status).toBe(429);
    expect(fifth.headers['x-ratelimit-limit']).toBe('5');
  });

  it('should count a signed-in user and an API key apart from their address and from each other', async () => {
    const ip = newIp();
    const user = await createUser(t.app);
    // Sign-in and key creation come from other addresses so that they do not spend this one.
    const cookie = (await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email: user.email, password: 'correct horse battery staple' }).expect(200)).headers['set-cookie'][0].split(';')[0];
    const key = (await t.http().post('/api/account/api-keys').set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ name: 'k' }).expect(201)).body.data.key;
    // Creating the key spent one of the user's 20.
    for (let i = 0; i < 19; i += 1) {
      await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Cookie', cookie).expect(200);
    }
    await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Cookie', cookie).expect(429);
    // Same address, other identities: their own budgets.
    const byKey = await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${key}`).expect(200);
    expect(byKey.headers['x-ratelimit-remaining']).toBe('19');
    const anonymous = await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).expect(401);
    expect(anonymous.headers['x-ratelimit-remaining']).toBe('19');
  });

  it("should count each Pterodactyl key on its own, as Hatchery's keys are, and a key that does not verify by address", async () => {
    const ip = newIp();
    const user = await createUser(t.app);
    const cookie = (await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200)).headers['set-cookie'][0].split(';')[0];
    const clientKey = async (): Promise<string> =>
      (await t.http().post('/api/account/pterodactyl-keys').set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ description: 'bot' }).expect(201)).body.data.key;
    const [first, second] = [await clientKey(), await clientKey()];
    const remaining = async (key: string, from: string, status: number): Promise<string> =>
      (await t.http().get('/pterodactyl/api/client/permissions').set('X-Forwarded-For', from).set('Authorization', `Bearer ${key}`).expect(status)).headers['x-ratelimit-remaining'];

    expect(await remaining(first, ip, 200)).toBe('149');
    // The same key from another address spends the same budget; another key behind the same address has its own.
    expect(await remaining(first, newIp(), 200)).toBe('148');
    expect(await remaining(second, ip, 200)).toBe('149');
    // A forged token naming a real key's identifier is counted against the address, not that key.
    const forged = `${first.slice(0, 16)}${'x'.repeat(32)}`;
    expect(await remaining(forged, ip, 401)).toBe('149');
    expect(await remaining(forged, ip, 401)).toBe('148');
    expect(await remaining(first, ip, 200)).toBe('147');
    // Past its budget, the key gets Pterodactyl's 429.
    for (let i = 0; i < 149; i += 1) {
      await remaining(second, newIp(), 200);
    }
    const limited = await t.http().get('/pterodactyl/api/client/permissions').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${second}`).expect(429);
    expect(limited.body).toEqual({ errors: [{ code: 'TooManyRequestsHttpException', status: '429', detail: expect.any(String) }] });
    expect(await remaining(first, ip, 200)).toBe('146');
  });

  it('should count requests with bad credentials by address, so they cannot dodge the limit', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i += 1) {
      await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Authorization', `Bearer nope${i}`).expect(401);
    }
    await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Authorization', 'Bearer nope').expect(429);
  });

  it('should leave the daemon callbacks out', async () => {
    const res = await t.http().get('/api/remote/servers').set('X-Forwarded-For', newIp()).expect(401);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it("should leave the health check out: a load balancer's checks from one address are never refused", async () => {
    const ip = newIp();
    for (let i = 0; i < 160; i += 1) {
      const res = await t.http().get('/api/health').set('X-Forwarded-For', ip).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // The address's global budget (150 per 5 minutes) is untouched.
    expect((await t.http().get('/api/no-such-route').set('X-Forwarded-For', ip).expect(404)).headers['x-ratelimit-remaining']).toBe('149');
  });

  /** Spellings Fastify's router serves as the route: percent-encoded segments and a trailing slash. */
  const SPELLINGS = [
    { route: '/api/auth/sign-in/username', limit: 5, spellings: ['/%61pi/auth/sign-in/username', '/api/auth/%73ign-in/username', '/api/auth/sign-in/username/', '/api/%61uth/sign-in/%75sername/'] },
    { route: '/api/auth/sign-in/email', limit: 3, spellings: ['/%61pi/auth/sign-in/email', '/api/auth/%73ign-in/email', '/api/auth/sign-in/email/', '/api/auth/sign-in/%65mail/'] },
    { route: '/api/auth/forget-password', limit: 5, spellings: ['/api/auth/forget-password/', '/%61pi/auth/forget-password', '/api/auth/%66orget-password', '/api/auth/forget%2Dpassword/'] },
  ];

  it.each(SPELLINGS.flatMap(({ route, limit, spellings }) => spellings.map((spelling) => [spelling, route, limit] as const)))(
    '%s is served as %s and meets its limit of %d',
    async (spelling, route, limit) => {
      const ip = newIp();
      for (let i = 1; i <= limit; i += 1) {
        const res = await call({ method: 'post', path: spelling }, ip);
        // The router serves this spelling as the route: the handler's validation answers, not a 404.
        expect(res.status).toBe(400);
        expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([String(limit), String(limit - i)]);
      }
      expect((await call({ method: 'post', path: spelling }, ip)).status).toBe(429);
      expect((await call({ method: 'post', path: route }, ip)).status).toBe(429);
    },
  );

  it.each(SPELLINGS.map(({ route, limit, spellings }) => [route, limit, spellings] as const))('%s: all spellings spend one budget', async (route, limit, spellings) => {
    const ip = newIp();
    const mixed = [route, ...spellings];
    for (let i = 0; i < limit; i += 1) {
      expect((await call({ method: 'post', path: mixed[i % mixed.length] }, ip)).status).toBe(400);
    }
    for (const path of mixed) {
      expect([path, (await call({ method: 'post', path }, ip)).status]).toEqual([path, 429]);
    }
  });

  it('should count requests no route matches against the global rule, whatever their path resembles', async () => {
    const ip = newIp();
    // The router takes no doubled slashes and is case-sensitive: these are no route's spellings.
    const unrouted = ['/api/auth/no-such-route', '/api//auth/sign-in/email', '/API/auth/sign-in/email', '/api/auth/sign-in', '/api/remote/no-such-route', '/nowhere'];
    for (const [i, path] of unrouted.entries()) {
      const res = await call({ method: 'post', path }, ip);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'ROUTE_NOT_FOUND']);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['150', String(149 - i)]);
    }
    // Routed requests under the global rule spend the same budget.
    const routed = await call({ method: 'get', path: '/api/unruled/anything' }, ip);
    expect([routed.status, routed.headers['x-ratelimit-remaining']]).toEqual([200, String(149 - unrouted.length)]);
    for (let i = unrouted.length + 1; i < 150; i += 1) {
      await call({ method: 'get', path: '/nowhere' }, ip);
    }
    expect((await call({ method: 'get', path: '/nowhere' }, ip)).status).toBe(429);
    expect((await call({ method: 'get', path: '/api/unruled/anything' }, ip)).status).toBe(429);
    // The health check still answers (it has no limit).
    expect((await call({ method: 'get', path: '/api/health' }, ip)).status).toBe(200);
  });

  it('should count the API docs, which no guard sees, against the global rule', async () => {
    const ip = newIp();
    for (const [i, path] of ['/api/docs.json', '/api/docs', '/api/docs.yaml'].entries()) {
      const res = await call({ method: 'get', path }, ip);
      expect([path, res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([path, 200, '150', String(149 - i)]);
    }
  });

  it('should count requests whose body cannot be read under their route, though no guard runs for them', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i += 1) {
      const res = await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', ip).set('Content-Type', 'application/json').send('{"email": ');
      expect([res.status, res.body.code, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([400, 'INVALID_JSON', '3', String(2 - i)]);
    }
    expect((await call({ method: 'post', path: '/api/auth/sign-in/email' }, ip)).status).toBe(429);
  });

  it('should describe one rule in X-RateLimit-* and Retry-After on a 429: the one that refuses the request longest', async () => {
    const ip = newIp();
    const opened = t.clock.now().getTime();
    const row = { method: 'post', path: '/api/auth/sign-in/email' } as const;
    for (let i = 0; i < 9; i += 1) {
      await call(row, ip);
    }
    // Sign-in by e-mail (3 per 10 s) is 7 over and sign-in (5 per 10 minutes) 5 over: refused for 10 minutes.
    const limited = await call(row, ip);
    expect(limited.status).toBe(429);
    expectHeaders(limited, 5, 0, opened + 600_000);
    expect(limited.headers['retry-after']).toBe('600');
    // One set: no per-rule variants of the headers.
    expect(Object.keys(limited.headers).filter((h) => /ratelimit|retry-after/.test(h)).sort()).toEqual(['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    // Later in the same window both still name that window's end.
    t.clock.advance(123_456);
    const later = await call(row, ip);
    expect(later.status).toBe(429);
    expectHeaders(later, 5, 0, opened + 600_000);
    expect(later.headers['retry-after']).toBe(String(Math.ceil((opened + 600_000 - t.clock.now().getTime()) / 1000)));
  });

  it('should count sign-in guesses by address, whatever API key or session the caller attaches', async () => {
    const attacker = await createUser(t.app);
    const cookie = (await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email: attacker.email, password: DEFAULT_PASSWORD }).expect(200)).headers['set-cookie'][0].split(';')[0];
    const keys: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      keys.push((await t.http().post('/api/account/api-keys').set('X-Forwarded-For', newIp()).set('Cookie', cookie).set('Origin', TEST_ORIGIN).send({ name: `k${i}` }).expect(201)).body.data.key);
    }
    const ip = newIp();
    const guess = (i: number) => t.http().post('/api/auth/sign-in/username').set('X-Forwarded-For', ip).send({ username: `nobody-${i}`, password: 'guess' });
    for (let i = 0; i < 5; i += 1) {
      const res = await guess(i).set('Authorization', `Bearer ${keys[i]}`);
      expect([res.status, res.headers['x-ratelimit-remaining']]).toEqual([401, String(4 - i)]);
    }
    // Another key or a session never used before buys no further guess from the address.
    expect((await guess(5).set('Authorization', `Bearer ${keys[5]}`)).status).toBe(429);
    expect((await guess(6).set('Cookie', cookie)).status).toBe(429);
    // The key itself still works on the routes it is for.
    await t.http().get('/api/account/api-keys').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${keys[5]}`).expect(200);
  });

  it('should count sign-in guesses against one account from rotating addresses, by username and e-mail alike', async () => {
    const victim = await createUser(t.app);
    const bystander = await createUser(t.app);
    const addresses = Array.from({ length: 7 }, newIp);
    const byUsername = (ip: string, username: string) => t.http().post('/api/auth/sign-in/username').set('X-Forwarded-For', ip).send({ username, password: 'guess' });
    const byEmail = (ip: string, email: string) => t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', ip).send({ email, password: 'guess' });
    for (let i = 0; i < 3; i += 1) {
      expect((await byUsername(addresses[i], victim.username)).status).toBe(401);
    }
    t.clock.advance(10_000);
    for (let i = 3; i < 5; i += 1) {
      expect((await byEmail(addresses[i], victim.email)).status).toBe(401);
    }
    // The sixth guess at the account, written otherwise and from yet another address, is refused.
    const limited = await byUsername(addresses[5], ` ${victim.username.toUpperCase()} `);
    expect([limited.status, limited.headers['x-ratelimit-limit'], limited.headers['x-ratelimit-remaining']]).toEqual([429, '5', '0']);
    // Another account is not held back, from the same addresses.
    expect((await byUsername(addresses[0], bystander.username)).status).toBe(401);
  });

  it('should count e-mail sign-in guesses against one account from rotating addresses, 3 per 10 seconds', async () => {
    const victim = await createUser(t.app);
    for (let i = 0; i < 3; i += 1) {
      expect((await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email: victim.email, password: 'guess' })).status).toBe(401);
    }
    const limited = await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({ email: victim.email.toUpperCase(), password: 'guess' });
    expect([limited.status, limited.headers['x-ratelimit-limit']]).toEqual([429, '3']);
  });
});

describe.each(dbKinds(['postgres']))('rate limits, proxies and switches (%s)', (db) => {
  it('should ignore X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true' } });
    try {
      for (let i = 0; i < 3; i += 1) {
        await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({});
      }
      // Three "different" clients were one loopback peer: the fourth request is refused.
      expect((await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', newIp()).send({})).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('should not limit anything with RATE_LIMIT_ENABLED=false', async () => {
    const t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'false' } });
    try {
      for (let i = 0; i < 6; i += 1) {
        const res = await t.http().post('/api/auth/sign-in/email').send({});
        expect(res.status).toBe(400);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });
});

/** Redis is required in CI; elsewhere these tests skip with the reason printed. */
const redisReachable = async (): Promise<boolean> => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch (e) {
    if (isCi()) {
      throw new Error(`Redis at ${REDIS_URL} is required in CI: ${(e as Error).message}`);
    }
    process.stdout.write(`[hatchery tests] skipping the Redis rate-limit tests: Redis at ${REDIS_URL} is not reachable\n`);
    return false;
  } finally {
    probe.disconnect();
  }
};

describe.each(dbKinds(['postgres']))('rate limits shared through Redis by two panel processes (%s)', () => {
  let reachable = false;
  let a: TestApp;
  let b: TestApp;
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    reachable = await redisReachable();
    if (!reachable) {
      return;
    }
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, DB_RUN_MIGRATIONS: 'false', RATE_LIMIT_ENABLED: 'true', TRUSTED_PROXIES: 'loopback', REDIS_URL };
    a = await createTestApp({ db: 'external', env });
    b = await createTestApp({ db: 'external', env });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('should spend one budget whichever process a client reaches', async () => {
    if (!reachable) {
      return;
    }
    const ip = newIp();
    const signIn_ = (t: TestApp) => t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', ip).send({});
    expect((await signIn_(a)).headers['x-ratelimit-remaining']).toBe('2');
    expect((await signIn_(b)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await signIn_(a)).headers['x-ratelimit-remaining']).toBe('0');
    expect((await signIn_(b)).status).toBe(429);
    expect((await signIn_(a)).status).toBe(429);
    const user = await createUser(a.app);
    const cookie = await signIn(b, user.email).catch(() => undefined);
    // Sign-in from the panel's own address is unaffected by this client's budget.
    expect(cookie).toBeDefined();
    expect(await createApiKey(a, cookie!)).toEqual(expect.any(String));
  });

  it("should share the sign-in guesses at an account and an address's SFTP failures between processes", async () => {
    if (!reachable) {
      return;
    }
    const victim = await createUser(a.app);
    const guess = (t: TestApp) => t.http().post('/api/auth/sign-in/username').set('X-Forwarded-For', newIp()).send({ username: victim.username, password: 'guess' });
    for (let i = 0; i < 5; i += 1) {
      expect((await guess(i % 2 === 0 ? a : b)).status).toBe(401);
    }
    expect((await guess(a)).status).toBe(429);
    expect((await guess(b)).status).toBe(429);

    const calling = await createNodeRow(a.app);
    const egg = await createEgg(a.app, (await createNest(a.app)).id);
    const server = await createServerRow(a.app, { node: calling.node, egg, owner: victim, allocation: await createAllocationRow(a.app, calling.node) });
    const clientIp = `${newIp()}:40000`;
    const sftp = (t: TestApp) =>
      t
        .http()
        .post('/api/remote/sftp/auth')
        .set('Authorization', `Bearer ${calling.node.tokenIdentifier}.${calling.token}`)
        .send({ type: 'password', username: `${victim.username}.${server.identifier}`, password: 'guess', ip: clientIp, session_id: 'c2Vzc2lvbg==', client_version: 'U1NILTIuMA==' });
    for (let i = 0; i < 5; i += 1) {
      const res = await sftp(i % 2 === 0 ? a : b);
      expect([res.status, res.headers['x-ratelimit-remaining']]).toEqual([403, String(4 - i)]);
    }
    const limited = await sftp(b);
    expect([limited.status, limited.headers['x-ratelimit-limit'], limited.headers['x-ratelimit-remaining']]).toEqual([429, '5', '0']);
  });
});
