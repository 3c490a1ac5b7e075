import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import Redis from 'ioredis';
import { createUser } from 'test/factories/user.factory';
import { signIn } from 'test/utils/auth';
import { createTestApp, TestApp } from 'test/utils/create-test-app';
import { freePort } from 'test/utils/free-port';
import { isCi } from 'test/setup/test-env';
import { dbKinds } from 'test/utils/test-db';

// A panel with REDIS_URL (a fleet, or docker/compose.yml's one panel) whose Redis goes away: a Redis of
// the test's own (Debian's redis-server, the one CI runs), killed, then frozen (SIGSTOP) under it.

const REDIS_SERVER = '/usr/bin/redis-server';

const redisServerInstalled = (): boolean => {
  if (existsSync(REDIS_SERVER)) {
    return true;
  }
  if (isCi()) {
    throw new Error(`the Redis outage tests need ${REDIS_SERVER} in CI (Debian's redis-server package)`);
  }
  process.stdout.write(`[hatchery tests] skipping the Redis outage tests: ${REDIS_SERVER} is not installed\n`);
  return false;
};

/** Resolves once `probe` answers true, polling every 100 ms; rejects after `limitMs`. */
const until = async (what: string, probe: () => Promise<boolean>, limitMs = 15_000): Promise<void> => {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${limitMs} ms`);
};

let lastIp = Math.floor(Math.random() * 30_000);
const newIp = (): string => {
  lastIp += 1;
  return `198.19.${(lastIp >> 8) & 255}.${lastIp & 255}`;
};

const run = (redisServerInstalled() ? describe.each : describe.skip.each)(dbKinds(['pglite', 'postgres']));

run('a panel whose Redis stops answering (%s)', (db) => {
  let t: TestApp;
  let url: string;
  let port: number;
  let redis: ChildProcess | undefined;
  /** A client of the test's own, to see where the panel counts. */
  let probe: Redis;

  const startRedis = async () => {
    redis = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until('redis-server answers', async () => (await probe.ping()) === 'PONG');
  };

  const stopRedis = async () => {
    const child = redis;
    redis = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
  };

  /** How many keys the panel keeps in Redis (its counters: the Redis is the test's own). */
  const keysInRedis = async (): Promise<number> => probe.dbsize();

  /** Whether sign-in attempts from a new address are counted in Redis (new counters appear there). */
  const countsInRedis = async (): Promise<boolean> => {
    const before = await keysInRedis();
    await signInAttempts(newIp(), 1);
    return (await keysInRedis()) > before;
  };

  /** Sign-in attempts from `ip` (3 per 10 s): the X-RateLimit-Remaining of each, or 429. */
  const signInAttempts = async (ip: string, n: number): Promise<string[]> => {
    const seen: string[] = [];
    // An address of its own, and an account of its own (the guesses at one account are counted too).
    const email = `nobody-${ip}@hatchery.test`;
    for (let i = 0; i < n; i += 1) {
      const res = await t.http().post('/api/auth/sign-in/email').set('X-Forwarded-For', ip).send({ email, password: 'a wrong guess' });
      seen.push(res.status === 429 ? '429' : `${res.status} ${res.headers['x-ratelimit-remaining']}`);
    }
    return seen;
  };

  beforeAll(async () => {
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 100, commandTimeout: 1_000 });
    probe.on('error', () => undefined);
    await startRedis();
    t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true', TRUSTED_PROXIES: 'loopback', REDIS_URL: url } });
  });

  afterAll(async () => {
    await t?.close();
    await stopRedis();
    probe?.disconnect();
  });

  it('should answer without Redis, every limit counted in its own memory, and count in Redis again once it is back', async () => {
    expect(await countsInRedis()).toBe(true);

    await stopRedis();
    // No request fails for want of Redis (before: 500 INTERNAL_ERROR for every limited route).
    expect((await t.http().get('/api/settings')).status).toBe(200);
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    expect((await t.http().get('/api/account').set('Cookie', cookie)).status).toBe(200);
    // The limits still hold, counted by this process.
    expect(await signInAttempts(newIp(), 4)).toEqual(['401 2', '401 1', '401 0', '429']);

    await startRedis();
    await until('the panel counts in Redis again', countsInRedis);
  });

  // Once, on PostgreSQL: what it shows is Redis's, the same whatever the database (the kill above runs on both).
  if (db === 'postgres') {
    it('should give up on a Redis that hangs (SIGSTOP) after a second, and leave it alone meanwhile', async () => {
      expect(await countsInRedis()).toBe(true);
      redis!.kill('SIGSTOP');
      try {
        // The first request waits out the command's second; the rest go on without Redis.
        expect((await t.http().get('/api/settings')).status).toBe(200);
        expect(await signInAttempts(newIp(), 4)).toEqual(['401 2', '401 1', '401 0', '429']);
      } finally {
        redis!.kill('SIGCONT');
      }
      await until('the panel counts in Redis again', countsInRedis);
    });
  }
});
