import { DataSource } from 'typeorm';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { createNodeRow } from 'test/factories/node.factory';
import { DAY, MINUTE } from 'test/utils/fake-clock';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { freePort } from 'test/utils/free-port';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';

const MIB = 1024 * 1024;
const hasPaper = eggFixtureFiles().includes('egg-paper.json');

/** What the simulated server reports at minute `i` of the test (network counters cumulative, as Wings'). */
const cpuAt = (i: number): number => 10 + (i % 4) * 10;
const memoryAt = (i: number): number => (100 + i) * MIB;
const SAMPLED_MINUTES = 150;

/** What the history should say of the minutes [first, last]: averages, peaks, the last disk size, network moved. */
const expected = (first: number, last: number) => {
  const minutes = Array.from({ length: last - first + 1 }, (_, k) => first + k);
  const cpus = minutes.map(cpuAt);
  const memories = minutes.map(memoryAt);
  return {
    cpuAbsolute: expect.closeTo(cpus.reduce((a, b) => a + b, 0) / cpus.length, 2),
    cpuMaxAbsolute: Math.max(...cpus),
    memoryBytes: expect.closeTo(memories.reduce((a, b) => a + b, 0) / memories.length, -1),
    memoryMaxBytes: Math.max(...memories),
    // The first sample has nothing to compare its counters with: it moved nothing.
    networkRxBytes: minutes.filter((i) => i > 0).length * 1000,
    networkTxBytes: minutes.filter((i) => i > 0).length * 500,
  };
};

/**
 * The usage history (docs/api.md#usage-history): the sampler reads the simulator's node once a
 * simulated minute while its server reports known usage, then the history is read at every range,
 * from the minute points and from their 15-minute rollups; old days go by dropping partitions.
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres', 'pglite']))('usage history (%s)', (db) => {
  let p: SimPanel;
  let uuid: string;
  let deadNodeId: string;
  /** The first sampled minute, a UTC midnight. */
  let t0: number;

  const sampler = () => p.t.app.get(UsageSamplerJob);
  const history = (range?: string) => p.asOwner('get', `/api/client/servers/${uuid}/resources/history${range ? `?range=${range}` : ''}`);
  const partitions = async (): Promise<string[]> =>
    (
      await p.t.app
        .get(DataSource)
        .query<{ name: string }[]>(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent WHERE parent.relname IN ('server_usage', 'server_usage_15m', 'node_usage', 'node_usage_15m') ORDER BY 1`)
    ).map((r) => r.name);

  beforeAll(async () => {
    p = await startSimPanel(db);
    const server = await p.createServer();
    uuid = server.uuid;
    await p.installed(server.id);
    await p.asOwner('post', `/api/client/servers/${uuid}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(uuid)?.state === 'running');
    // A node nobody answers for: refused at once on a closed port.
    deadNodeId = (await createNodeRow(p.t.app, { fqdn: '127.0.0.1', scheme: 'http', daemonListen: await freePort() })).node.id;

    const now = p.t.clock.now().getTime();
    t0 = Math.ceil(now / DAY) * DAY;
    p.t.clock.advance(t0 - now + 5_000);
    for (let i = 0; i < SAMPLED_MINUTES; i++) {
      p.sim.servers.get(uuid)!.setUsage({ cpu: cpuAt(i), memoryBytes: memoryAt(i), rxBytes: 1000 * i, txBytes: 500 * i });
      const outcome = await sampler().sample();
      expect(outcome).toMatchObject({ nodes: 2, unreachable: 1, servers: 1 });
      p.t.clock.advance(MINUTE);
    }
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should answer the last hour minute by minute', async () => {
    const { body } = await history('1h').expect(200);
    expect(body.data).toMatchObject({ range: '1h', resolution: 60, to: new Date(t0 + SAMPLED_MINUTES * MINUTE + 5_000).toISOString() });
    // The hour before now, minute 91 to 149 (minute 150 is not sampled yet).
    expect(body.data.points).toHaveLength(59);
    expect(body.data.points[0]).toEqual({ at: new Date(t0 + 91 * MINUTE).toISOString(), diskBytes: expect.any(Number), ...expected(91, 91) });
    expect(body.data.points[58]).toMatchObject({ at: new Date(t0 + 149 * MINUTE).toISOString(), cpuAbsolute: cpuAt(149), memoryBytes: memoryAt(149), networkRxBytes: 1000 });
    // No range is the last hour.
    expect((await history().expect(200)).body.data).toEqual(body.data);
  });

  it('should answer a day in five-minute points', async () => {
    const { body } = await history('24h').expect(200);
    expect(body.data).toMatchObject({ range: '24h', resolution: 300 });
    expect(body.data.points).toHaveLength(30);
    body.data.points.forEach((point: Record<string, unknown>, k: number) => {
      expect(point).toMatchObject({ at: new Date(t0 + k * 5 * MINUTE).toISOString(), ...expected(5 * k, 5 * k + 4) });
    });
  });

  it('should answer a week from the 15-minute rollups, and a month and a season from them too', async () => {
    const week = (await history('7d').expect(200)).body.data;
    expect(week).toMatchObject({ range: '7d', resolution: 900 });
    // The last quarter of an hour (minutes 135 to 149) is rolled up by the next sample.
    expect(week.points).toHaveLength(9);
    week.points.forEach((point: Record<string, unknown>, k: number) => {
      expect(point).toMatchObject({ at: new Date(t0 + k * 15 * MINUTE).toISOString(), ...expected(15 * k, 15 * k + 14) });
    });
    const month = (await history('30d').expect(200)).body.data;
    expect(month).toMatchObject({ range: '30d', resolution: 3600 });
    expect(month.points.map((q: { at: string }) => q.at)).toEqual([0, 1, 2].map((h) => new Date(t0 + h * 60 * MINUTE).toISOString()));
    expect(month.points[1]).toMatchObject(expected(60, 119));
    expect(month.points[2]).toMatchObject(expected(120, 134));
    const season = (await history('90d').expect(200)).body.data;
    expect(season).toMatchObject({ range: '90d', resolution: 10800 });
    expect(season.points).toEqual([{ at: new Date(t0).toISOString(), diskBytes: expect.any(Number), ...expected(0, 134) }]);
  });

  it('should give administrators each node summed, and a node that did not answer as unreachable', async () => {
    const live = (await p.admin('get', `/api/admin/nodes/${p.nodeId}/resources/history?range=1h`).expect(200)).body.data;
    expect(live.points).toHaveLength(59);
    expect(live.points[58]).toMatchObject({ reachability: 1, serversRunning: 1, cpuAbsolute: cpuAt(149), memoryBytes: memoryAt(149), networkTxBytes: 500 });
    const dead = (await p.admin('get', `/api/admin/nodes/${deadNodeId}/resources/history?range=7d`).expect(200)).body.data;
    expect(dead.points).toHaveLength(9);
    expect(dead.points.every((q: { reachability: number; serversRunning: number }) => q.reachability === 0 && q.serversRunning === 0)).toBe(true);
    await p.admin('get', '/api/admin/nodes/999999/resources/history').expect(404);
    await p.asOwner('get', `/api/admin/nodes/${p.nodeId}/resources/history`).expect(403);
  });

  it('should refuse a range it does not know, and a server the caller may not see', async () => {
    const { body } = await history('2h').expect(400);
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'range', message: expect.any(String) }] });
    const stranger = await p.newUser();
    await stranger.as('get', `/api/client/servers/${uuid}/resources/history`).expect(404);
  });

  it('should drop the minute points after two days and the rollups after ninety, a day at a time', async () => {
    const day = new Date(t0).toISOString().slice(0, 10).replaceAll('-', '');
    expect(await partitions()).toEqual(expect.arrayContaining([`node_usage_p${day}`, `node_usage_15m_p${day}`, `server_usage_p${day}`, `server_usage_15m_p${day}`]));

    // Three days on, day t0's last minute is more than two days old. The server moved 7 MB meanwhile:
    // counters read three days ago do not measure this minute (its traffic is 0, as after a restart).
    p.t.clock.advance(3 * DAY);
    p.sim.servers.get(uuid)!.setUsage({ cpu: cpuAt(149), memoryBytes: memoryAt(149), rxBytes: 1000 * 149 + 7_000_000, txBytes: 500 * 149 + 7_000_000 });
    const three = await sampler().sample();
    expect(three?.droppedPartitions.sort()).toEqual([`node_usage_p${day}`, `server_usage_p${day}`]);
    // Only the minute just sampled is left of the minute points; the rollups of day t0 stay, the last
    // quarter of an hour rolled up by this sample.
    expect((await history('24h').expect(200)).body.data.points).toHaveLength(1);
    expect((await history('7d').expect(200)).body.data.points).toHaveLength(10);

    // Sessions do not last three months; an API key does.
    const key = (await p.asOwner('post', '/api/account/api-keys').send({ name: 'history' }).expect(201)).body.data.key as string;
    p.t.clock.advance(89 * DAY);
    const ninetyTwo = await sampler().sample();
    expect(ninetyTwo?.droppedPartitions).toEqual(expect.arrayContaining([`node_usage_15m_p${day}`, `server_usage_15m_p${day}`]));
    expect(await partitions()).not.toContain(`server_usage_15m_p${day}`);
    const season = await p.t.http().get(`/api/client/servers/${uuid}/resources/history?range=90d`).set('Authorization', `Bearer ${key}`).expect(200);
    // Day t0 is gone; what is left is the minute sampled on day t0 + 3, rolled up before its day was dropped.
    expect(season.body.data.points).toEqual([
      { at: new Date(t0 + 3 * DAY).toISOString(), ...expected(149, 149), networkRxBytes: 0, networkTxBytes: 0, diskBytes: expect.any(Number) },
    ]);
  });
});
