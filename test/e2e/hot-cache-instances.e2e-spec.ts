import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CHANGE_FEED_OPTIONS, ChangeFeed } from 'src/common/hot-cache/change-feed';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import type { ServerEntity } from 'src/modules/servers/server.entity';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createAllocationRow, createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { LogCapture } from 'test/utils/log-capture';
import { closedPort } from 'test/utils/nodes';
import { countQueries } from 'test/utils/query-counter';
import { waitFor } from 'test/utils/sim-panel';
import { createTestDatabase, dbKinds } from 'test/utils/test-db';

/** How long another process may serve what was changed elsewhere (the notification's trip). */
const CROSS_PROCESS_MS = 2_000;
/** B waits this long before it reconnects its change feed, so a test can act while it is down. */
const B_RECONNECT_MS = 1_500;

// Two panel processes (two Nest apps, two pools, two change feeds) on one PostgreSQL database.
describe.each(dbKinds(['postgres']))('hot caches across two panel processes on one database (%s)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  /** A's log: it hears B, and has no REDIS_URL. */
  const aLogs = new LogCapture();
  let node: NodeEntity;
  let egg: EggEntity;

  const get = (app: TestApp, path: string, headers: Record<string, string>) => app.http().get(path).set(headers);
  const feedOf = (app: TestApp) => app.app.get(ChangeFeed);
  /** Polls B until `probe` holds; fails after CROSS_PROCESS_MS. */
  const seenByB = (probe: () => Promise<boolean>) => waitFor(probe, CROSS_PROCESS_MS);
  /** SQL on a connection of its own, as another program (or an operator in psql) would write. */
  const rawSql = async (sql: string, params: unknown[] = [], { silent = false } = {}) => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      if (silent) {
        // Replica mode fires no ordinary trigger: a write nobody hears about.
        await client.query('SET session_replication_role = replica');
      }
      await client.query(sql, params);
    } finally {
      await client.end();
    }
  };

  const account = async (options: { admin?: boolean } = {}) => {
    const user = await createUser(a.app, options);
    const cookie = await signIn(a, user.email);
    const key = await createApiKey(a, cookie);
    return { user, session: { Cookie: cookie }, apiKey: { Authorization: `Bearer ${key}` } };
  };

  /**
   * B answers `status` for `path`, the second time from its caches (no query). It first waits until
   * B has heard what A just wrote: a notification arriving after B's fill would rightly drop it.
   */
  const warmB = async (path: string, headers: Record<string, string>, status = 200) => {
    await b.app.get(ChangeFeed).caughtUp();
    await get(b, path, headers).expect(status);
    const { result, queries } = await countQueries(async () => get(b, path, headers));
    expect({ status: result.status, queries }).toEqual({ status, queries: [] });
    return result.body;
  };

  const serverOf = async (owner: { id: string }): Promise<ServerEntity> =>
    createServerRow(a.app, { node, egg, owner, allocation: await createAllocationRow(a.app, node) });

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, DB_RUN_MIGRATIONS: 'false' };
    a = await createTestApp({ db: 'external', env, logStream: aLogs });
    const bFeed = { reconnectDelaysMs: [B_RECONNECT_MS], heartbeatMs: 200, heartbeatTimeoutMs: 1_000 };
    b = await createTestApp({ db: 'external', env, overrides: [{ provide: CHANGE_FEED_OPTIONS, useValue: bFeed }] });
    node = (await createNodeRow(a.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await closedPort() })).node;
    egg = await createEgg(a.app, (await createNest(a.app)).id);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('should have both change feeds listening once booted', () => {
    expect([feedOf(a).state, feedOf(b).state]).toEqual(['listening', 'listening']);
  });

  it('should hear the other process on the change feed, and warn once that without REDIS_URL its limits are its own', async () => {
    // B's heartbeats (every 200 ms here) reach A; A's own probes are not counted.
    await waitFor(() => feedOf(a).otherProcesses() === 1, 5_000);
    const warnings = aLogs.lines().filter((l) => String(l.msg).startsWith('Another panel process uses this database, and REDIS_URL is not set'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, context: 'ChangeFeed' });
  });

  it('should refuse in B an API key revoked in A, a session signed out in A and a demoted admin, within 2 s', async () => {
    const user = await account({ admin: true });
    await warmB('/api/account', user.apiKey);
    await get(b, '/api/admin/users', user.apiKey).expect(200);
    const [listed] = (await get(a, '/api/account/api-keys', user.session).expect(200)).body.data;
    await a.http().delete(`/api/account/api-keys/${listed.identifier}`).set(user.session).set('Origin', TEST_ORIGIN).expect(204);
    await seenByB(async () => (await get(b, '/api/account', user.apiKey)).status === 401);

    const other = await account({ admin: true });
    await warmB('/api/account', other.session);
    await get(b, '/api/admin/users', other.apiKey).expect(200);
    const admin = await account({ admin: true });
    await a.http().patch(`/api/admin/users/${other.user.id}`).set(admin.session).set('Origin', TEST_ORIGIN).send({ admin: false }).expect(200);
    await seenByB(async () => (await get(b, '/api/admin/users', other.apiKey)).status === 403);
    await a.http().post('/api/auth/sign-out').set(other.session).set('Origin', TEST_ORIGIN).expect(204);
    await seenByB(async () => (await get(b, '/api/account', other.session)).status === 401);
  });

  it('should show in B a server renamed and a subuser removed in A, within 2 s', async () => {
    const owner = await account();
    const friend = await account();
    const server = await serverOf(owner.user);
    const path = `/api/client/servers/${server.uuid}`;
    await a.http().post(`${path}/users`).set(owner.session).set('Origin', TEST_ORIGIN).send({ email: friend.user.email, permissions: [] }).expect(201);
    await warmB(path, owner.apiKey);
    await warmB(path, friend.apiKey);
    await a.http().post(`${path}/settings/rename`).set(owner.session).set('Origin', TEST_ORIGIN).send({ name: 'Renamed in A' }).expect(204);
    await seenByB(async () => (await get(b, path, owner.apiKey)).body.data.name === 'Renamed in A');
    await a.http().delete(`${path}/users/${friend.user.id}`).set(owner.session).set('Origin', TEST_ORIGIN).expect(204);
    await seenByB(async () => (await get(b, path, friend.apiKey)).status === 404);
  });

  it('should, once caughtUp resolves, have applied every change committed before, beside its own heartbeats', async () => {
    const owner = await account();
    const server = await serverOf(owner.user);
    const path = `/api/client/servers/${server.uuid}`;
    await warmB(path, owner.apiKey);
    const cachedInB = () => b.app.get(HotCaches).servers.get(server.uuid);
    const pid = feedOf(b).backendPid;
    // The listening connection's queries, one at a time however many probe at once (pg 9 will refuse a second).
    let running = 0;
    let most = 0;
    const query = Reflect.get(Client.prototype, 'query') as (...a: unknown[]) => unknown;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const sent = query.apply(this, args);
      if ((this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name === 'hatchery-changes' && sent instanceof Promise) {
        running += 1;
        most = Math.max(most, running);
        void sent.finally(() => (running -= 1)).catch(() => undefined);
      }
      return sent as never;
    });
    // For a second, across B's 200 ms heartbeats; two at once, each waiting for its own probe.
    const until = Date.now() + 1_000;
    for (let i = 0; Date.now() < until; i += 1) {
      expect(cachedInB()).toBeDefined();
      await rawSql('UPDATE server SET name = $1 WHERE id = $2', [`Told ${i}`, server.id]);
      await Promise.all([feedOf(b).caughtUp(), feedOf(b).caughtUp()]);
      // Dropped by the time caughtUp resolved, not some time later; the next request reads the change.
      expect(cachedInB()).toBeUndefined();
      expect((await get(b, path, owner.apiKey).expect(200)).body.data.name).toBe(`Told ${i}`);
    }
    expect([feedOf(b).state, feedOf(b).backendPid]).toEqual(['listening', pid]);
    expect(most).toBe(1);
    jest.restoreAllMocks();
  });

  it('should read the database while its listener is down, and cache again once it listens', async () => {
    const owner = await account();
    const server = await serverOf(owner.user);
    const path = `/api/client/servers/${server.uuid}`;
    const nameInB = async () => (await get(b, path, owner.apiKey).expect(200)).body.data.name as string;
    await warmB(path, owner.apiKey);

    // A write nobody is told about: B keeps serving what it cached (so B really serves from its cache).
    await rawSql('UPDATE server SET name = $1 WHERE id = $2', ['Unannounced', server.id], { silent: true });
    expect(await nameInB()).toBe(server.name);

    const pid = feedOf(b).backendPid;
    await rawSql('SELECT pg_terminate_backend($1)', [pid]);
    await waitFor(() => feedOf(b).state === 'down', CROSS_PROCESS_MS);
    // Down: B reads the database on every request, so it sees what it was never told about...
    expect(await nameInB()).toBe('Unannounced');
    // ...and what is announced while nobody in B listens.
    await rawSql('UPDATE server SET name = $1 WHERE id = $2', ['While B was deaf', server.id]);
    const { result, queries } = await countQueries(async () => get(b, path, owner.apiKey).expect(200));
    expect(result.body.data.name).toBe('While B was deaf');
    expect(queries.length).toBeGreaterThan(0);
    expect(feedOf(b).state).toBe('down');

    // Listening again (a new backend): cached again, and told about changes again.
    await waitFor(() => feedOf(b).state === 'listening', B_RECONNECT_MS + 5_000);
    expect(feedOf(b).backendPid).not.toBe(pid);
    expect((await warmB(path, owner.apiKey)).data.name).toBe('While B was deaf');
    await rawSql('UPDATE server SET name = $1 WHERE id = $2', ['After the reconnection', server.id]);
    await seenByB(async () => (await nameInB()) === 'After the reconnection');
  });

  it('should give up a listening connection that answers queries but is no longer handed notifications', async () => {
    const pid = feedOf(b).backendPid;
    // As a transaction-mode pooler would: the connection answers, its LISTEN is gone.
    await (feedOf(b) as unknown as { client: Client }).client.query('UNLISTEN *');
    await waitFor(() => feedOf(b).state === 'down', CROSS_PROCESS_MS);
    await waitFor(() => feedOf(b).state === 'listening', B_RECONNECT_MS + 5_000);
    expect(feedOf(b).backendPid).not.toBe(pid);
  });

  it('should refuse at once a key deleted unannounced while its listener is down, and after it listens again', async () => {
    const owner = await account();
    await warmB('/api/account', owner.apiKey);
    const ds = b.app.get(DataSource);
    const pid = feedOf(b).backendPid;
    await ds.query('SELECT pg_terminate_backend($1)', [pid]);
    await waitFor(() => feedOf(b).state === 'down', CROSS_PROCESS_MS);
    await rawSql('DELETE FROM api_key WHERE user_id = $1', [owner.user.id], { silent: true });
    await get(b, '/api/account', owner.apiKey).expect(401);
    await waitFor(() => feedOf(b).state === 'listening', B_RECONNECT_MS + 5_000);
    await get(b, '/api/account', owner.apiKey).expect(401);
  });
});
