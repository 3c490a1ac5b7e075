import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { OutboundPolicy } from 'src/common/http/outbound-url';
import { JOB_SCHEMA } from 'src/common/background/job-queue';
import { LogRetentionCron } from 'src/modules/retention/log-retention.cron';
import { StaleUploadsCleanup } from 'src/modules/backups/hosts/stale-uploads.cleanup';
import { TransfersCron } from 'src/modules/servers/transfers/transfers.cron';
import { UsageSamplerJob } from 'src/modules/usage/usage-sampler.job';
import { DELIVERY_QUEUE } from 'src/modules/webhooks/webhook-delivery.job';
import { eggFixtureFiles } from 'test/utils/fixtures';
import { SimPanel, startSimPanel, waitFor } from 'test/utils/sim-panel';
import { DbKind, dbKinds } from 'test/utils/test-db';
import { WebhookReceiver } from 'test/utils/webhook-receiver';

const hasPaper = eggFixtureFiles().includes('egg-paper.json');

interface JobRow {
  name: string;
  state: string;
  data: { id?: string } | null;
  output: { ranBy?: string; sent?: boolean } | null;
  singletonOn: Date | null;
  startAfter: Date;
}

const METRICS_TOKEN = 'job-queue-metrics-token-0123456789';

/** A panel with its scheduler on, as in production, and a webhook receiver, for the tests of one describe. */
const scheduledPanel = (db: DbKind): { p: () => SimPanel; rx: () => WebhookReceiver } => {
  let panel: SimPanel | undefined;
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    panel = await startSimPanel(db, {
      env: { SCHEDULER_ENABLED: 'true', SCHEDULER_TICK_SECONDS: '1', USAGE_SAMPLE_INTERVAL_SECONDS: '10', METRICS_TOKEN: METRICS_TOKEN },
      overrides: [{ provide: OutboundPolicy, useValue: new OutboundPolicy(true) }],
    });
  });
  afterAll(async () => {
    await panel?.close();
    await receiver?.close();
  });
  return { p: () => panel!, rx: () => receiver! };
};

/**
 * The background work as jobs on pg-boss's PostgreSQL queue (src/common/background/job-queue.ts),
 * with the scheduler on as in production: the periodic work is one job per interval, and each webhook
 * delivery (and each retry) is a job of its own that the panel sends without a sweep. The fleet spec
 * shows the same jobs shared by three processes. The embedded database serves one process: its work
 * runs on timers in that process, with no queue.
 */
(hasPaper ? describe : describe.skip).each(dbKinds(['postgres']))('background jobs on the queue (%s)', (db) => {
  const { p, rx } = scheduledPanel(db);

  const jobs = async (name: string): Promise<JobRow[]> =>
    p().t.app
      .get(DataSource)
      .query(
        `SELECT name, state, data, output, singleton_on AS "singletonOn", start_after AS "startAfter" FROM ${JOB_SCHEMA}.job WHERE name = $1 ORDER BY created_on`,
        [name],
      );


  it('should make a queue for each kind of background work, and run the periodic ones once per interval', async () => {
    const names = [TransfersCron.JOB, LogRetentionCron.JOB, UsageSamplerJob.JOB, StaleUploadsCleanup.JOB, 'webhooks.deliver', DELIVERY_QUEUE];
    const queues = await waitFor(async () => {
      const rows: { name: string; policy: string }[] = await p().t.app.get(DataSource).query(`SELECT name, policy FROM ${JOB_SCHEMA}.queue`);
      return rows.length >= names.length && rows;
    });
    expect(Object.fromEntries(queues.map((q) => [q.name, q.policy]))).toEqual({
      ...Object.fromEntries(names.map((n) => [n, 'stately'])),
      [DELIVERY_QUEUE]: 'standard',
    });
    // The transfer sweep (every SCHEDULER_TICK_SECONDS = 1 s) ran as jobs, recorded as run by this process.
    const swept = await waitFor(async () => {
      const done = (await jobs(TransfersCron.JOB)).filter((j) => j.state === 'completed');
      return done.length >= 3 && done;
    });
    expect(swept[0].output?.ranBy).toMatch(/^.+:\d+$/);
    // One job per interval, however often it was offered.
    const slots = swept.map((j) => j.singletonOn?.toISOString());
    expect(new Set(slots).size).toBe(slots.length);
    // The usage sampler's job is a shift: one process holds it (active) and samples each interval (10 s here;
    // its first pass, at boot, may have come before the test's node was made).
    await waitFor(async () => (await jobs(UsageSamplerJob.JOB)).some((j) => j.state === 'active'));
    await waitFor(async () => (await p().t.app.get(DataSource).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM node_usage`))[0].n > 0, 25_000);
  });

  it("should count each queue's jobs by state in the metrics", async () => {
    const scrape = async () => (await p().t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
    const text = await waitFor(async () => {
      const got = await scrape();
      return got.includes('hatchery_job_queue_jobs{queue="usage.sample"') && got;
    });
    for (const state of ['ready', 'deferred', 'active', 'failed']) {
      expect(text).toMatch(new RegExp(`^hatchery_job_queue_jobs\\{queue="${TransfersCron.JOB}",state="${state}"\\} \\d+$`, 'm'));
    }
    // The sampler's shift, held by this process, is counted active once pg-boss's monitor (every 10 s) has counted.
    await waitFor(async () => /^hatchery_job_queue_jobs\{queue="usage\.sample",state="active"\} 1$/m.test(await scrape()), 25_000);
  });

  it('should send each webhook delivery as a job of its own, and its retry as a job from its time on', async () => {
    const hook = (
      await p()
        .admin('post', '/api/admin/webhooks')
        .send({ name: 'Queued', kind: 'http', url: rx().url('/queued'), events: ['server.suspended'] })
        .expect(201)
    ).body.data;
    rx().failFirst('/queued', 1);
    const server = await p().createServer({ name: 'Queued hook' });
    await p().installed(server.id);
    await p().admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
    // Sent by its job, at once: nothing here calls the sweep, whose interval (30 s) is far off.
    await waitFor(() => rx().at('/queued').length === 1);
    const [delivery] = (await p().admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.data;
    const [first, retry] = await waitFor(async () => {
      const rows = (await jobs(DELIVERY_QUEUE)).filter((j) => j.data?.id === delivery.id);
      return rows.length === 2 && rows;
    });
    expect(first).toMatchObject({ state: 'completed', output: { ranBy: expect.stringMatching(/^.+:\d+$/), sent: true } });
    // The retry's job starts when the delivery says its next attempt is (10 s after the first).
    const pending = (await p().admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.data[0];
    expect(pending).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
    expect(Math.abs(new Date(retry.startAfter).getTime() - new Date(pending.nextAttemptAt).getTime())).toBeLessThan(1000);
    expect(retry.state).toBe('created');
    // Due by the panel's clock and by the queue's: the retry is sent by its job.
    p().t.clock.advance(11_000);
    await waitFor(() => rx().at('/queued').length === 2, 20_000);
    expect(rx().at('/queued').map((r) => r.status)).toEqual([500, 200]);
    // The receiver has the request before the panel has its answer and records it.
    const done = await waitFor(async () => {
      const latest = (await p().admin('get', `/api/admin/webhooks/${hook.id}/deliveries`).expect(200)).body.data[0];
      return latest.status !== 'pending' && latest;
    });
    expect(done).toMatchObject({ status: 'delivered', nextAttemptAt: null });
    expect(done.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    // Sent by the retry's job (the sweep takes only deliveries a minute overdue, which no job sent).
    await waitFor(async () => (await jobs(DELIVERY_QUEUE)).filter((j) => j.data?.id === delivery.id)[1]?.state === 'completed');
    expect((await jobs(DELIVERY_QUEUE)).filter((j) => j.data?.id === delivery.id)[1].output).toMatchObject({ sent: true });
  }, 40_000);
});

(hasPaper ? describe : describe.skip)('background work on the embedded database (pglite)', () => {
  const { p, rx } = scheduledPanel('pglite');


  it('should run the periodic work on timers in its one process, send a new delivery at once, and make no queue', async () => {
    const registry = p().t.app.get(SchedulerRegistry);
    await waitFor(() => [TransfersCron.JOB, LogRetentionCron.JOB, UsageSamplerJob.JOB, StaleUploadsCleanup.JOB, 'webhooks.deliver'].every((n) => registry.doesExist('interval', n)));
    await p()
      .admin('post', '/api/admin/webhooks')
      .send({ name: 'Embedded', kind: 'http', url: rx().url('/embedded'), events: ['server.suspended'] })
      .expect(201);
    const server = await p().createServer({ name: 'Embedded hook' });
    await p().installed(server.id);
    await p().admin('post', `/api/admin/servers/${server.id}/suspend`).expect(200);
    await waitFor(() => rx().at('/embedded').length === 1);
    const schemas: unknown[] = await p().t.app.get(DataSource).query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [JOB_SCHEMA]);
    expect(schemas).toEqual([]);
  });
});
