import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { isAlertEvent, PanelEvent, PanelEvents } from 'src/common/events/panel-events';
import { AppConfigService } from 'src/config/app-config.service';
import type { WebhookEntity } from 'src/modules/webhooks/webhook.entity';
import { WebhookDeliveryJob } from 'src/modules/webhooks/webhook-delivery.job';
import { newDelivery } from 'src/modules/webhooks/webhook-payload';
import { WebhooksRepository } from 'src/modules/webhooks/webhooks.repository';

/** An alert about one server or node is sent at most once in this window. */
const ALERT_WINDOW_MS = 10 * 60_000;

/** Whether a webhook subscribed to the event. */
const hears = (hook: Pick<WebhookEntity, 'events'>, event: string): boolean => hook.events.includes('*') || hook.events.includes(event);

/**
 * Turns the panel's events into queued deliveries, one per webhook that hears it: every enabled
 * administrator's webhook, and the server's own for an event about a server. An alert already sent
 * about the same server or node within ALERT_WINDOW_MS is dropped, for every webhook at once.
 */
@Injectable()
export class WebhookDispatcher implements OnModuleInit {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly wake: boolean;

  constructor(
    private readonly events: PanelEvents,
    private readonly repo: WebhooksRepository,
    private readonly job: WebhookDeliveryJob,
    private readonly clock: Clock,
    config: AppConfigService,
  ) {
    // Where the jobs run on their own, a new delivery is sent at once (its job) rather than at the next sweep.
    this.wake = config.scheduler.enabled;
  }

  onModuleInit(): void {
    this.events.subscribe(async (event) => {
      await this.dispatch(event);
    });
  }

  /** Queues the event's deliveries; how many. */
  async dispatch(event: PanelEvent): Promise<number> {
    const now = this.clock.now();
    if (isAlertEvent(event.event)) {
      const subject = event.server ? `server:${event.server.id}` : event.node ? `node:${event.node.id}` : null;
      if (subject && !(await this.repo.claimAlert(subject, event.event, now, new Date(now.getTime() - ALERT_WINDOW_MS)))) {
        this.logger.debug(`${event.event} about ${subject} was sent within the last 10 minutes; not again`);
        return 0;
      }
    }
    const hooks = (await this.repo.listeners(event.server?.id ?? null)).filter((h) => hears(h, event.event));
    const rows = hooks.map((hook) => newDelivery(hook.id, event.event, event, now));
    const ids = await this.repo.insertDeliveries(rows);
    if (ids.length > 0 && this.wake && !(await this.job.enqueue(ids))) {
      void this.job.tick();
    }
    return rows.length;
  }
}
