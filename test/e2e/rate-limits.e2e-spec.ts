import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { Response } from 'supertest';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { isCi } from 'test/setup/test-env';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A client address of its own for each test, through a trusted proxy's X-Forwarded-For. */
const newIp = (): string => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

interface Row {
  rule: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  limit: number;
  windowMs: number;
  /** False where a wider rule on the same path still holds after this row's window (shown in its own test). */
  resets?: boolean;
}

/** interface.md §8, one request per row that the row alone decides (the tightest rule on its path). */
const ROWS: Row[] = [
  { rule: 'global', method: 'get', path: '/api/health', limit: 150, windowMs: 300_000 },
  { rule: '/api/auth/**', method: 'get', path: '/api/auth/session', limit: 45, windowMs: 300_000 },
  { rule: '/api/auth/sign-in/** (username)', method: 'post', path: '/api/auth/sign-in/username', limit: 5, windowMs: 600_000 },
  { rule: 'sign-in by e-mail', method: 'post', path: '/api/auth/sign-in/email', limit: 3, windowMs: 10_000, resets: false },
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
    t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true', TRUSTED_PROXIES: 'loopback' } });
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
});
