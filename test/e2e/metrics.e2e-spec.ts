import { spawnSync } from 'node:child_process';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { createTestApp } from 'test/utils/create-test-app';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { dbKinds } from 'test/utils/test-db';
import { isCi } from 'test/setup/test-env';
import { WebhookReceiver } from 'test/utils/webhook-receiver';

const TOKEN = 'metrics-scrape-token-for-tests';
const MIB = 1024 * 1024;
const hasPaper = eggFixtureFiles().includes('egg-paper.json');

/** Prometheus' own checker (Debian's `prometheus` package): required in CI, skipped with the reason elsewhere. */
const promtool = spawnSync('promtool', ['--version']).status === 0;
if (!promtool) {
  if (isCi()) {
    throw new Error('promtool is required in CI (apt-get install prometheus)');
  }
  process.stdout.write('[hatchery tests] promtool not found: the metrics format is not checked by it\n');
}

/** The value of the one sample of `name` whose labels include `labels`, or undefined. */
const sample = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) {
      continue;
    }
    const has = Object.entries(labels).every(([k, v]) => (m[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/).includes(`${k}="${v}"`));
    if (has) {
      return Number(m[3]);
    }
  }
  return undefined;
};

describe('GET /metrics without METRICS_TOKEN (pglite)', () => {
  it('should not be there at all', async () => {
    const t = await createTestApp({ db: 'pglite' });
    try {
      const res = await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
      expect(res.body.code).toBe('ROUTE_NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});

/**
 * Prometheus metrics (docs/configuration.md#metrics) of a panel with a node (the Wings simulator) and a
 * running server: the counters of what it did, the fleet from what it keeps, and no daemon call for a
 * scrape, with per-server series on. The embedded-database tour scrapes a PGlite panel with the default
 * (no per-server series).
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('GET /metrics (%s)', (db) => {
  const perServer = true;
  let p: SimPanel;
  let server: { id: string; uuid: string };

  const scrape = () => p.t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);

  beforeAll(async () => {
    p = await startSimPanel(db, {
      env: { METRICS_TOKEN: TOKEN, METRICS_PER_SERVER: String(perServer) },
      overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }],
    });
    server = await p.createServer({ memory: 1024, disk: 2048 });
    await p.installed(server.id);
    await p.asOwner('post', `/api/client/servers/${server.uuid}/power`).send({ action: 'start' }).expect(200);
    await waitFor(() => p.sim.servers.get(server.uuid)?.state === 'running');
    await p.t.app.get(UsageSamplerJob).sample();
  });

  afterAll(async () => {
    await p?.close();
  });

  it('should refuse a scrape without the token, or with another', async () => {
    const none = await p.t.http().get('/metrics').expect(401);
    expect(none.body.code).toBe('UNAUTHENTICATED');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    await p.t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
    await p.t.http().get('/metrics').set('Authorization', TOKEN).expect(401);
  });

  it('should count requests by route and status, and daemon calls by node and outcome', async () => {
    await p.asOwner('get', `/api/client/servers/${server.uuid}`).expect(200);
    await p.asOwner('get', '/api/client/servers/00000000-0000-4000-8000-000000000000').expect(404);
    const res = await scrape().expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.text, 'hatchery_http_requests_total', { method: 'GET', route: '/api/client/servers/:server', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(res.text, 'hatchery_http_requests_total', { method: 'GET', route: '/api/client/servers/:server', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(res.text, 'hatchery_http_request_duration_seconds_count', { method: 'GET', route: '/api/client/servers/:server' })).toBeGreaterThanOrEqual(2);
    expect(sample(res.text, 'hatchery_daemon_requests_total', { node: p.nodeId, outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(sample(res.text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('should describe the fleet from what the panel keeps, without calling a daemon', async () => {
    const before = p.sim.requests.length;
    const { text } = await scrape().expect(200);
    expect(p.sim.requests.length).toBe(before);
    expect(sample(text, 'hatchery_servers', { state: 'ready' })).toBe(1);
    expect(sample(text, 'hatchery_node_up', { node: p.nodeId })).toBe(1);
    expect(sample(text, 'hatchery_node_servers', { node: p.nodeId })).toBe(1);
    expect(sample(text, 'hatchery_node_servers_running', { node: p.nodeId })).toBe(1);
    expect(sample(text, 'hatchery_node_memory_allocated_bytes', { node: p.nodeId })).toBe(1024 * MIB);
    expect(sample(text, 'hatchery_node_disk_allocated_bytes', { node: p.nodeId })).toBe(2048 * MIB);
    expect(sample(text, 'hatchery_node_memory_used_bytes', { node: p.nodeId })).toBeGreaterThan(0);
    expect(sample(text, 'hatchery_node_info', { node: p.nodeId, name: 'sim' })).toBe(1);
    expect(sample(text, 'hatchery_server_cpu_percent', { server: server.uuid }) !== undefined).toBe(perServer);
  });

  it('should count schedule runs by outcome', async () => {
    const base = `/api/client/servers/${server.uuid}/schedules`;
    const schedule = (await p.asOwner('post', base).send({ name: 'metrics', cron: { minute: '0', hour: '0', day_of_month: '1', month: '1', day_of_week: '*' } }).expect(201)).body.data;
    await p.asOwner('post', `${base}/${schedule.id}/tasks`).send({ action: 'command', payload: 'say hi', time_offset: 0 }).expect(201);
    await p.asOwner('post', `${base}/${schedule.id}/run`).expect(202);
    await waitFor(async () => sample((await scrape().expect(200)).text, 'hatchery_schedule_runs_total', { outcome: 'completed' }) === 1);
  });

  it('should count webhook attempts by outcome', async () => {
    const rx = new WebhookReceiver();
    await rx.start();
    try {
      const hook = (await p.admin('post', '/api/admin/webhooks').send({ name: 'metrics', kind: 'http', url: rx.url('/m'), events: ['*'] }).expect(201)).body.data;
      rx.failFirst('/m', 1);
      // A test is tried once: failed, then delivered.
      await p.admin('post', `/api/admin/webhooks/${hook.id}/test`).expect(200);
      await p.admin('post', `/api/admin/webhooks/${hook.id}/test`).expect(200);
      const text = (await scrape().expect(200)).text;
      expect([sample(text, 'hatchery_webhook_attempts_total', { outcome: 'failed' }), sample(text, 'hatchery_webhook_attempts_total', { outcome: 'delivered' })]).toEqual([1, 1]);
      await p.admin('delete', `/api/admin/webhooks/${hook.id}`).expect(204);
    } finally {
      await rx.close();
    }
  });

  (promtool ? it : it.skip)("should pass promtool's checks", async () => {
    const { text } = await scrape().expect(200);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: check.status, problems: `${check.stdout}${check.stderr}`.trim() }).toEqual({ status: 0, problems: '' });
  });
});
