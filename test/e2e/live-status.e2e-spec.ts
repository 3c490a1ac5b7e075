import { randomUUID } from 'node:crypto';
import { LiveStatusService } from 'src/modules/live-status/live-status.service';
import { ServerContextResolver } from 'src/modules/servers/server-context';
import { createEgg, createNest } from 'test/factories/egg.factory';
import { createNodeRow } from 'test/factories/node.factory';
import { createServerRow } from 'test/factories/server.factory';
import { createUser } from 'test/factories/user.factory';
import { createApiKey, signIn } from 'test/utils/auth';
import { createTestApp, TEST_ORIGIN, TestApp } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { freePort } from 'test/utils/free-port';
import { LiveClient, refusalOf } from 'test/utils/live-client';
import { denial } from 'test/utils/nodes';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { WingsSimulator } from 'test/wings-sim';

/**
 * The live-status socket (docs/api.md#live-status) against a real panel and two Wings simulators
 * over HTTP: what a caller may watch, the one-call-per-node feed, and a dead node that marks only
 * its own servers while the other node's frames keep coming.
 */

const INTERVAL_MS = 300;
const TIMEOUT_MS = 1_500;
const hasPaper = eggFixtureFiles().includes('egg-paper.json');
const MISSING = '00000000-0000-4000-8000-000000000000';

const RESOURCES = {
  currentState: expect.stringMatching(/^(offline|starting|running|stopping)$/),
  isSuspended: false,
  resources: {
    memoryBytes: expect.any(Number),
    memoryLimitBytes: expect.any(Number),
    cpuAbsolute: expect.any(Number),
    diskBytes: expect.any(Number),
    networkRxBytes: expect.any(Number),
    networkTxBytes: expect.any(Number),
    uptime: expect.any(Number),
  },
};

(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('live status WebSocket (%s)', (db) => {
  let p: SimPanel;
  let sim2: WingsSimulator;
  let node2Id: string;
  let url: string;
  /** The owner's servers: two on node 1, one on node 2; and another user's server on node 1. */
  let a1: string;
  let a2: string;
  let b1: string;
  let foreign: string;
  const open: LiveClient[] = [];

  const live = () => p.t.app.get(LiveStatusService);
  const polls = (sim: WingsSimulator) => sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/servers');
  const perServer = (sim: WingsSimulator, from: number) => sim.requests.slice(from).filter((r) => r.method === 'GET' && /^\/api\/servers\/[^/]+$/.test(r.path));
  const connect = async (headers: Record<string, string> = { Cookie: p.ownerCookie, Origin: TEST_ORIGIN }) => {
    const client = await LiveClient.connect(url, headers);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    p = await startSimPanel(db, { env: { LIVE_STATUS_INTERVAL_MS: String(INTERVAL_MS), LIVE_STATUS_TIMEOUT_MS: String(TIMEOUT_MS) } });
    url = `${(await p.t.app.getUrl()).replace(/^http/, 'ws')}/api/ws`;
    const key = (await p.admin('post', '/api/account/api-keys').send({ name: 'configure', permissions: ['nodes.read'] }).expect(201)).body.data.key as string;
    const location = (await p.admin('get', '/api/admin/locations').expect(200)).body.data[0].id as string;
    const port = await freePort();
    node2Id = (
      await p
        .admin('post', '/api/admin/nodes')
        .send({ name: 'sim2', fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 100000, locationId: location })
        .expect(201)
    ).body.data.id;
    await p.admin('post', `/api/admin/nodes/${node2Id}/allocations`).send({ ip: '0.0.0.0', ports: ['26565-26569'] }).expect(201);
    const config = (await p.t.http().get(`/api/admin/daemon/nodes/${node2Id}/configuration`).set('Authorization', `Bearer ${key}`).expect(200)).body.data;
    sim2 = new WingsSimulator({
      panelUrl: await p.t.app.getUrl(),
      tokenId: config.token_id,
      token: config.token,
      port,
      allowedOrigins: [TEST_ORIGIN],
      timing: { lineDelayMs: 5, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
    });
    await sim2.start();

    const other = await createUser(p.t.app);
    // One at a time: each takes a free allocation of its node.
    const servers = [];
    for (const body of [{ name: 'A1' }, { name: 'A2' }, { name: 'B1', node_id: node2Id }, { name: 'Foreign', owner_id: other.id }]) {
      servers.push(await p.createServer(body));
    }
    await Promise.all(servers.map((s) => p.installed(s.id)));
    [a1, a2, b1, foreign] = servers.map((s) => s.uuid);
  });

  afterEach(async () => {
    p.sim.resetFaults();
    sim2.resetFaults();
    await Promise.all(open.splice(0).map((c) => c.close()));
    await waitFor(() => live().pollingNodes().length === 0);
    await live().settled();
  });

  afterAll(async () => {
    await sim2?.stop();
    await p?.close();
  });

  it('should send the resources of an owned server and drop servers the caller cannot view', async () => {
    const client = await connect();
    expect(await client.subscribe([a1, foreign, MISSING, 'not-a-server', a1])).toEqual([a1]);
    const frame = await client.next((f) => f.event === 'resources');
    expect(frame.data).toEqual({ [a1]: RESOURCES });
    expect(frame.data[a1].currentState).toBe(p.sim.servers.get(a1)!.state);
    expect(client.frames.some((f) => f.event === 'resources' && foreign in f.data)).toBe(false);
  });

  it('should accept an API key without an Origin, and refuse the upgrade without a credential or from another origin', async () => {
    const key = (await p.asOwner('post', '/api/account/api-keys').send({ name: 'script' }).expect(201)).body.data.key as string;
    const script = await connect({ Authorization: `Bearer ${key}` });
    expect(await script.subscribe([b1])).toEqual([b1]);
    expect((await script.next((f) => f.event === 'resources')).data).toEqual({ [b1]: RESOURCES });

    expect(await refusalOf(LiveClient.connect(url, { Origin: TEST_ORIGIN }))).toEqual({ status: 401, body: denial(401, 'UNAUTHENTICATED', 'Authentication required') });
    expect(await refusalOf(LiveClient.connect(url, { Cookie: 'hatchery_session=forged', Origin: TEST_ORIGIN }))).toEqual({
      status: 401,
      body: denial(401, 'UNAUTHENTICATED', 'Authentication required'),
    });
    expect(await refusalOf(LiveClient.connect(url, { Cookie: p.ownerCookie, Origin: 'https://evil.example' }))).toEqual({
      status: 403,
      body: denial(403, 'UNTRUSTED_ORIGIN', 'WebSocket connections must come from a trusted origin'),
    });
    expect(await refusalOf(LiveClient.connect(url, { Authorization: `Bearer ${key}`, Origin: 'null' }))).toMatchObject({ status: 403 });
  });

  it('should answer a plain GET with 426 and bad frames with error frames', async () => {
    const res = await p.asOwner('get', '/api/ws').expect(426);
    expect(res.body).toEqual(denial(426, 'UPGRADE_REQUIRED', 'This endpoint is a WebSocket: connect with an Upgrade: websocket request'));

    const client = await connect();
    client.sendRaw('{not json');
    expect((await client.next((f) => f.event === 'error')).data).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
    let from = client.frames.length;
    client.send('shutdown', {});
    expect((await client.next((f) => f.event === 'error', from)).data).toEqual({ code: 'UNKNOWN_EVENT', message: 'Unknown event "shutdown"' });
    from = client.frames.length;
    client.send('subscribe', { servers: 'all' });
    expect((await client.next((f) => f.event === 'error', from)).data).toEqual({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    from = client.frames.length;
    client.send('subscribe', { servers: Array.from({ length: 101 }, (_v, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) });
    expect((await client.next((f) => f.event === 'error', from)).data).toEqual({ code: 'TOO_MANY_SERVERS', message: 'At most 100 servers can be watched at once' });
    expect(live().pollingNodes()).toEqual([]);

    client.sendRaw(JSON.stringify({ event: 'subscribe', data: { servers: ['x'.repeat(20_000)] } }));
    expect((await client.closed).code).toBe(1009);

    const chatty = await connect();
    for (let i = 0; i < 25; i += 1) {
      chatty.send('subscribe', { servers: [] });
    }
    expect(await chatty.closed).toEqual({ code: 1008, reason: 'Too many messages' });
  });

  it('should report only the dead node as unreachable while the other node keeps its pace', async () => {
    const client = await connect();
    expect(await client.subscribe([a1, b1, a2])).toEqual([a1, b1, a2]);
    await client.next((f) => f.event === 'resources' && b1 in f.data);

    // Node 2 hangs past its timeout: its servers are reported once it ran out, node 1's frames keep coming meanwhile.
    sim2.faults.slowMs = TIMEOUT_MS * 3;
    const hungFrom = client.frames.length;
    const unreachable = await client.next((f) => f.event === 'node-unreachable', hungFrom, TIMEOUT_MS * 4);
    expect(unreachable.data).toEqual({ nodeId: node2Id, servers: [b1], code: 'DAEMON_TIMEOUT' });
    const meanwhile = client.frames.slice(hungFrom, client.frames.indexOf(unreachable)).filter((f) => f.event === 'resources');
    expect(meanwhile.every((f) => Object.keys(f.data).sort().join() === [a1, a2].sort().join())).toBe(true);
    expect(meanwhile.length).toBeGreaterThanOrEqual(Math.floor(TIMEOUT_MS / INTERVAL_MS) - 2);
    const gaps = meanwhile.slice(1).map((f, i) => f.at - meanwhile[i].at);
    expect(Math.max(...gaps)).toBeLessThan(INTERVAL_MS * 3);

    // Node 2 goes down: refused connections are reported without waiting out the timeout.
    sim2.resetFaults();
    sim2.faults.down = true;
    const downFrom = client.frames.length;
    expect((await client.next((f) => f.event === 'node-unreachable' && f.data.code === 'DAEMON_UNAVAILABLE', downFrom)).data).toEqual({
      nodeId: node2Id,
      servers: [b1],
      code: 'DAEMON_UNAVAILABLE',
    });
    expect((await client.next((f) => f.event === 'resources', downFrom)).data).toEqual({ [a1]: RESOURCES, [a2]: RESOURCES });

    sim2.resetFaults();
    expect((await client.next((f) => f.event === 'resources' && b1 in f.data, client.frames.length)).data).toEqual({ [b1]: RESOURCES });
  });

  it('should ask each node once per interval however many servers and watchers, and nobody when nobody watches', async () => {
    const idle = await connect();
    expect(await idle.subscribe([])).toEqual([]);
    await live().settled();
    expect(live().pollingNodes()).toEqual([]);
    const [before1, before2] = [polls(p.sim).length, polls(sim2).length];
    const perServerFrom = [p.sim.requests.length, sim2.requests.length];

    const one = await connect();
    const two = await connect();
    expect(await one.subscribe([a1, a2, b1])).toEqual([a1, a2, b1]);
    expect(await two.subscribe([a2, a1])).toEqual([a2, a1]);
    expect(live().pollingNodes()).toEqual([p.nodeId, node2Id].sort());
    const frames = (c: LiveClient, uuid: string) => c.frames.filter((f) => f.event === 'resources' && uuid in f.data);
    await waitFor(() => frames(two, a1).length >= 5 && frames(one, b1).length >= 5);
    const [node1Polls, node2Polls] = [polls(p.sim).slice(before1), polls(sim2).slice(before2)];
    // Every poll gave each watcher one frame, at most one poll may be on its way, and polls are an interval apart.
    expect(node1Polls.length - frames(one, a1).length).toBeGreaterThanOrEqual(0);
    expect(node1Polls.length - frames(one, a1).length).toBeLessThanOrEqual(1);
    expect(node2Polls.length - frames(one, b1).length).toBeLessThanOrEqual(1);
    expect(Math.abs(frames(one, a1).length - frames(two, a1).length)).toBeLessThanOrEqual(1);
    // Polls start an interval apart. They are timed where the node receives them, so one held up on
    // a busy machine can arrive close to the next: count them over the whole span instead of
    // comparing single gaps (polling twice per interval would still show as twice the count).
    for (const list of [node1Polls, node2Polls]) {
      const span = list[list.length - 1].time.getTime() - list[0].time.getTime();
      expect((list.length - 1) * INTERVAL_MS).toBeLessThanOrEqual(span + 100);
    }
    expect(perServer(p.sim, perServerFrom[0])).toEqual([]);
    expect(perServer(sim2, perServerFrom[1])).toEqual([]);
    expect(idle.frames.filter((f) => f.event === 'resources')).toEqual([]);

    // An empty set stops node 2 (nobody else watches there); closing the last watcher of node 1 stops it.
    expect(await one.subscribe([])).toEqual([]);
    expect(live().pollingNodes()).toEqual([p.nodeId]);
    await two.close();
    await waitFor(() => live().pollingNodes().length === 0);
    await live().settled();
    const after = [polls(p.sim).length, polls(sim2).length];
    expect(await idle.subscribe([])).toEqual([]);
    await live().settled();
    expect([polls(p.sim).length, polls(sim2).length]).toEqual(after);
  });

  it('should stop a removed subuser at the next poll and close the socket of a signed-out session', async () => {
    const friend = await createUser(p.t.app);
    await p.asOwner('post', `/api/client/servers/${a1}/users`).send({ email: friend.email, permissions: ['server.view'] }).expect(201);
    const friendCookie = await signIn(p.t, friend.email);
    const client = await connect({ Cookie: friendCookie, Origin: TEST_ORIGIN });
    expect(await client.subscribe([a1, a2])).toEqual([a1]);
    await client.next((f) => f.event === 'resources');

    await p.asOwner('delete', `/api/client/servers/${a1}/users/${friend.id}`).expect(204);
    const from = client.frames.length;
    expect((await client.next((f) => f.event === 'subscribed', from)).data).toEqual({ servers: [] });
    await live().settled();
    const last = client.frames.length;
    expect(client.frames.slice(from).filter((f) => f.event === 'resources' && a1 in f.data).length).toBeLessThanOrEqual(1);
    expect(live().pollingNodes()).toEqual([]);
    expect(client.frames.length).toBe(last);

    const session = await signIn(p.t, friend.email);
    const watched = await connect({ Cookie: session, Origin: TEST_ORIGIN });
    await p.asOwner('post', `/api/client/servers/${a2}/users`).send({ email: friend.email, permissions: ['server.view'] }).expect(201);
    expect(await watched.subscribe([a2])).toEqual([a2]);
    await p.t.http().post('/api/auth/sign-out').set('Cookie', session).set('Origin', TEST_ORIGIN).expect(204);
    expect(await watched.closed).toEqual({ code: 4401, reason: 'The session or API key is no longer valid' });
    await waitFor(() => live().pollingNodes().length === 0);

    const keyOwner = await createApiKey(p.t, friendCookie, { name: 'revoked' });
    const byKey = await connect({ Authorization: `Bearer ${keyOwner}` });
    expect(await byKey.subscribe([a2])).toEqual([a2]);
    const keys = (await p.t.http().get('/api/account/api-keys').set('Cookie', friendCookie).expect(200)).body.data as { identifier: string; name: string }[];
    const revoked = keys.find((k) => k.name === 'revoked')!;
    await p.t.http().delete(`/api/account/api-keys/${revoked.identifier}`).set('Cookie', friendCookie).set('Origin', TEST_ORIGIN).expect(204);
    expect((await byKey.closed).code).toBe(4401);
  });
});

describe.each(dbKinds(['postgres']))('live status WebSocket upgrades and the rate limit (%s)', (db) => {
  it('should count upgrade requests under the global limit and refuse them with 429 past it', async () => {
    const t = await createTestApp({ db, env: { RATE_LIMIT_ENABLED: 'true' } });
    try {
      await t.app.listen(0, '127.0.0.1');
      const url = `${(await t.app.getUrl()).replace(/^http/, 'ws')}/api/ws`;
      const statuses: number[] = [];
      for (let i = 0; i < 151; i += 1) {
        statuses.push((await refusalOf(LiveClient.connect(url, { Origin: TEST_ORIGIN }))).status);
      }
      expect(statuses.slice(0, 150).every((s) => s === 401)).toBe(true);
      expect(await refusalOf(LiveClient.connect(url, { Origin: TEST_ORIGIN }))).toEqual({
        status: 429,
        body: denial(429, 'RATE_LIMITED', 'Rate limit exceeded, try again later'),
      });
    } finally {
      await t.close();
    }
  });
});

describe.each(dbKinds(['postgres']))('live status WebSocket limits per account and per socket (%s)', (db) => {
  let t: TestApp;
  let url: string;
  const open: LiveClient[] = [];
  const connect = async (headers: Record<string, string>) => {
    const client = await LiveClient.connect(url, headers);
    open.push(client);
    return client;
  };
  const uuids = (n: number) => Array.from({ length: n }, () => randomUUID());

  beforeAll(async () => {
    // A node nobody listens on: its servers' polls fail fast, which these tests do not look at.
    t = await createTestApp({ db, env: { LIVE_STATUS_MAX_SOCKETS_PER_USER: '3', LIVE_STATUS_INTERVAL_MS: '60000' } });
    await t.app.listen(0, '127.0.0.1');
    url = `${(await t.app.getUrl()).replace(/^http/, 'ws')}/api/ws`;
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await t.close();
  });

  it('should close a fourth socket of one account at once with 4429, over sessions and keys alike, and take one again after a close', async () => {
    const user = await createUser(t.app);
    const cookie = await signIn(t, user.email);
    const key = await createApiKey(t, cookie, { name: 'script' });
    const browser = { Cookie: cookie, Origin: TEST_ORIGIN };
    const first = await connect(browser);
    await connect({ Authorization: `Bearer ${key}` });
    await connect({ Authorization: `Bearer ${key}` });

    const refused = await connect(browser);
    expect(await refused.closed).toEqual({ code: 4429, reason: 'Too many live-status connections: at most 3 per account' });
    // The three open ones still work.
    expect(await first.subscribe([])).toEqual([]);

    // Another account is counted on its own.
    const other = await createUser(t.app);
    const theirs = await connect({ Cookie: await signIn(t, other.email), Origin: TEST_ORIGIN });
    expect(await theirs.subscribe([])).toEqual([]);

    await first.close();
    const again = await connect(browser);
    expect(await again.subscribe([])).toEqual([]);
    expect(again.socket.readyState).toBe(again.socket.OPEN);
  });

  it('should refuse a subscribe past the socket’s lookup budget with RATE_LIMITED, without looking anything up, and not count servers it watches', async () => {
    const user = await createUser(t.app);
    const { node } = await createNodeRow(t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: 1 });
    const egg = await createEgg(t.app, (await createNest(t.app)).id);
    const owned = await createServerRow(t.app, { node, egg, owner: user });
    const client = await connect({ Cookie: await signIn(t, user.email), Origin: TEST_ORIGIN });
    const lookups = jest.spyOn(t.app.get(ServerContextResolver), 'forCaller');

    // Lookups by subscriptions; the poll of the owned server's node checks it again too, once per interval.
    const looked = (ref?: string) => lookups.mock.calls.filter(([, called]) => (ref === undefined ? called !== owned.uuid : called === ref)).length;

    // 300 lookups: three subscriptions of 100 servers, 99 of them new each time and not existing (a database query each).
    expect(await client.subscribe([owned.uuid, ...uuids(99)])).toEqual([owned.uuid]);
    expect(await client.subscribe([owned.uuid, ...uuids(99)])).toEqual([owned.uuid]);
    expect(await client.subscribe([owned.uuid, ...uuids(99)])).toEqual([owned.uuid]);
    expect(await client.subscribe(uuids(2))).toEqual([]);
    expect(looked()).toBe(99 * 3 + 2);
    // The watched server was looked up by the first subscribe only (and by at most one poll).
    expect(looked(owned.uuid)).toBeLessThanOrEqual(2);

    const from = client.frames.length;
    client.send('subscribe', { servers: uuids(100) });
    const refusal = await client.next((f) => f.event === 'error' || f.event === 'subscribed', from);
    expect(refusal).toMatchObject({ event: 'error', data: { code: 'RATE_LIMITED', message: expect.stringMatching(/^This connection has looked up too many servers; subscribe again in \d+ s$/) } });
    expect(looked()).toBe(99 * 3 + 2);
    // The set is left as it was, and the socket stays open; another socket has its own budget.
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    const second = await connect({ Cookie: await signIn(t, user.email), Origin: TEST_ORIGIN });
    expect(await second.subscribe([owned.uuid, ...uuids(99)])).toEqual([owned.uuid]);
  });
});
