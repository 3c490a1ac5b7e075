import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { JobQueue } from 'src/common/background/job-queue';
import { Clock } from 'src/common/clock';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { OutboundPolicy, postPublic } from 'src/common/http/outbound-url';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { AppConfigService } from 'src/config/app-config.service';
import type { WebhookEntity } from 'src/modules/webhooks/webhook.entity';
import { webhookRequest, WebhookPayload } from 'src/modules/webhooks/webhook-payload';
import { ClaimedDelivery, WebhooksRepository } from 'src/modules/webhooks/webhooks.repository';
import { errorMessage } from 'src/common/errors/error-message';

/** Seconds before each retry: nine tries over about 70 minutes. */
const RETRY_DELAYS_SECONDS = [10, 30, 60, 120, 300, 600, 1200, 1800] as const;
/** The first try and every retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

const TIMEOUT_MS = 10_000;
/** A claimed delivery not finished by then (its process died) is tried again by anyone. */
const LEASE_MS = 60_000;
const BATCH = 25;
/** The queue of single deliveries (a job per delivery and per retry, data `{ id }`). */
export const DELIVERY_QUEUE = 'webhooks.delivery';
/** How often due deliveries no job brought are looked for (a job lost with a killed process's claim). */
const SWEEP_EVERY_MS = 30_000;
/** With the queue, the sweep takes only deliveries this much overdue: the others are their jobs' to send. */
const SWEEP_GRACE_MS = 60_000;
/** Deliveries sent at once by one process. */
const CONCURRENT = 8;
/** Finished deliveries are kept this long, for their log. */
const KEEP_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

export const sealContext = (webhookId: string): string => `webhook:${webhookId}:secret`;

/**
 * Sends the queued deliveries (docs/webhooks.md#deliveries). Each delivery is a job on the PostgreSQL
 * queue (DELIVERY_QUEUE, sent by the dispatcher, and again for each retry with its start time), taken
 * by any panel process; the job claims its row (so no two processes send one delivery at once), posts
 * it under the outbound-address rules, logs the attempt, and sets the next try after a failure
 * (RETRY_DELAYS_SECONDS) until MAX_ATTEMPTS. Every SWEEP_EVERY_MS a fleet-wide sweep (`drain`) sends
 * what is SWEEP_GRACE_MS overdue, which no job sent (its process was killed mid-attempt and the claim
 * lapsed; the queue was not running when it was made). Without the queue the sweep runs in every
 * process, and a new event wakes it at once.
 */
@Injectable()
export class WebhookDeliveryJob extends IntervalJob {
  private lastPrune = 0;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly secrets: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly clock: Clock,
    private readonly metrics: PanelMetrics,
    config: AppConfigService,
    registry: SchedulerRegistry,
    private readonly jobs: JobQueue,
  ) {
    super('webhooks.deliver', 'Webhook deliveries', SWEEP_EVERY_MS, registry, config, { queue: jobs });
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    this.jobs.handle<{ id: string }>({ name: DELIVERY_QUEUE, run: ({ id }) => this.sendDue(id) });
  }

  /**
   * Queues new deliveries' jobs; false when the queue is not running here or refused them (then the
   * caller wakes the sweep instead; a delivery sent twice is claimed once).
   */
  async enqueue(ids: readonly string[]): Promise<boolean> {
    try {
      for (const id of ids) {
        if (!(await this.jobs.send(DELIVERY_QUEUE, { id }))) {
          return false;
        }
      }
      return true;
    } catch (e) {
      this.logger.warn(`Webhook deliveries not queued (${errorMessage(e)}); sending them from this process`);
      return false;
    }
  }

  /** A delivery's job: sends it if it is still pending and due (the sweep or a test may have sent it); whether it did. */
  async sendDue(deliveryId: string): Promise<{ sent: boolean }> {
    const now = this.clock.now();
    const claimed = await this.repo.claimOne(deliveryId, new Date(now.getTime() + LEASE_MS), now);
    if (claimed) {
      await this.attemptLogged(claimed, (await this.repo.findByIds([claimed.webhookId]))[0]);
    }
    return { sent: claimed !== null };
  }

  protected async run(): Promise<void> {
    await this.drain(this.onQueue ? SWEEP_GRACE_MS : 0);
    const now = this.clock.now().getTime();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.repo.deleteFinishedBefore(new Date(now - KEEP_MS));
    }
  }

  /** Sends every delivery due now (or overdue by `graceMs`); how many were tried. */
  async drain(graceMs = 0): Promise<number> {
    let tried = 0;
    for (;;) {
      const now = this.clock.now();
      const batch = await this.repo.claimDue(new Date(now.getTime() - graceMs), new Date(now.getTime() + LEASE_MS), BATCH);
      if (batch.length === 0) {
        return tried;
      }
      const hooks = new Map((await this.repo.findByIds([...new Set(batch.map((d) => d.webhookId))])).map((w) => [w.id, w]));
      const queue = [...batch];
      const worker = async (): Promise<void> => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          await this.attemptLogged(next, hooks.get(next.webhookId));
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENT, queue.length) }, worker));
      tried += batch.length;
      if (batch.length < BATCH) {
        return tried;
      }
    }
  }

  /** Sends one delivery now, due or not (a "send test"); false when it is not pending. */
  async sendNow(deliveryId: string): Promise<boolean> {
    const claimed = await this.repo.claimOne(deliveryId, new Date(this.clock.now().getTime() + LEASE_MS));
    if (!claimed) {
      return false;
    }
    await this.attemptLogged(claimed, (await this.repo.findByIds([claimed.webhookId]))[0]);
    return true;
  }

  /** One delivery's attempt; a failure of the panel's own (its webhook deleted meanwhile) is logged, and the others go on. */
  private async attemptLogged(delivery: ClaimedDelivery, hook: WebhookEntity | undefined): Promise<void> {
    try {
      await this.attempt(delivery, hook);
    } catch (e) {
      this.logger.error(`Webhook delivery ${delivery.uuid} could not be sent or recorded: ${errorMessage(e)}`);
    }
  }

  private async attempt(delivery: ClaimedDelivery, hook: WebhookEntity | undefined): Promise<void> {
    const started = this.clock.now();
    if (!hook?.enabled) {
      await this.repo.abandon(delivery.id, started);
      return;
    }
    let statusCode: number | null = null;
    let error: string | null = null;
    const t0 = performance.now();
    try {
      // A secret sealed under another APP_KEY cannot be opened: the attempt fails with that said, not the job.
      const secret = hook.kind === 'http' && hook.secret ? this.openSecret(hook) : null;
      const request = webhookRequest(hook.kind, delivery.payload as unknown as WebhookPayload, secret, started);
      const answer = await postPublic(hook.url, request.body, { policy: this.policy, timeoutMs: TIMEOUT_MS, headers: request.headers, keepBytes: 300 });
      statusCode = answer.status;
      if (statusCode < 200 || statusCode > 299) {
        error = answer.body.trim() ? answer.body.slice(0, 300) : null;
      }
    } catch (e) {
      error = e instanceof AppException ? e.message : 'The request failed';
    }
    const durationMs = Math.round(performance.now() - t0);
    const delivered = statusCode !== null && statusCode >= 200 && statusCode <= 299;
    const finishedAt = this.clock.now();
    const last = delivered || delivery.test || delivery.attempts >= MAX_ATTEMPTS;
    const nextAttemptAt = last ? null : new Date(finishedAt.getTime() + RETRY_DELAYS_SECONDS[delivery.attempts - 1] * 1000);
    await this.repo.recordAttempt(
      { deliveryId: delivery.id, at: started, statusCode, error, durationMs },
      nextAttemptAt ? { status: 'pending', nextAttemptAt } : { status: delivered ? 'delivered' : 'failed', finishedAt },
    );
    if (nextAttemptAt) {
      // The retry's own job, from its time on (without the queue, the sweep finds it then).
      await this.jobs.send(DELIVERY_QUEUE, { id: delivery.id }, { startAfter: nextAttemptAt });
    }
    this.metrics.webhookAttempt(delivered ? 'delivered' : last ? 'failed' : 'retrying');
    if (!delivered) {
      this.logger.warn(`Webhook ${hook.id} delivery ${delivery.uuid} attempt ${delivery.attempts} failed: ${statusCode ?? error}`);
    }
  }

  private openSecret(hook: WebhookEntity): string {
    try {
      return this.secrets.open(hook.secret!, sealContext(hook.id));
    } catch {
      throw new AppException(CommonError.INTERNAL_ERROR, { message: "The webhook's secret cannot be opened (was APP_KEY changed?); set a new one" });
    }
  }
}
