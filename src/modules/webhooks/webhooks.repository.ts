import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { pageWithTotal } from 'src/database/page-with-total';
import { returnedRows } from 'src/database/returned-rows';
import { WebhookAlertEntity, WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEntity } from 'src/modules/webhooks/webhook.entity';

/** A delivery taken to be tried now, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  uuid: string;
  webhookId: string;
  payload: Record<string, unknown>;
  attempts: number;
  test: boolean;
}

/** What a claim answers of each delivery it took (ClaimedDelivery). */
const CLAIMED = `d.id::text AS id, d.uuid, d.webhook_id::text AS "webhookId", d.payload, d.attempts, d.test`;

/** A new delivery's row. */
type NewDelivery = Pick<WebhookDeliveryEntity, 'uuid' | 'webhookId' | 'event' | 'payload' | 'test' | 'createdAt' | 'nextAttemptAt'>;

@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectRepository(WebhookEntity) private readonly webhooks: Repository<WebhookEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectRepository(WebhookAttemptEntity) private readonly attemptRows: Repository<WebhookAttemptEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.webhooks.manager.transaction(fn);
  }

  /** An administrator's webhooks (`serverId` null) or a server's. */
  page(serverId: string | null, skip: number, take: number): Promise<[WebhookEntity[], number]> {
    const query = this.webhooks.createQueryBuilder('w').orderBy('w.id', 'ASC');
    query.where(serverId === null ? 'w.server_id IS NULL' : 'w.server_id = :serverId', { serverId });
    return pageWithTotal(query, skip, take);
  }

  count(serverId: string | null, manager: EntityManager): Promise<number> {
    return manager.getRepository(WebhookEntity).countBy({ serverId: serverId ?? IsNull() });
  }

  /** The webhook if it is `serverId`'s (an administrator's when null). */
  find(id: string, serverId: string | null, manager: EntityManager = this.webhooks.manager): Promise<WebhookEntity | null> {
    return manager.getRepository(WebhookEntity).findOneBy({ id, serverId: serverId ?? IsNull() });
  }

  findByIds(ids: string[]): Promise<WebhookEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.webhooks.findBy({ id: In(ids) });
  }

  save(row: Partial<WebhookEntity>, manager: EntityManager = this.webhooks.manager): Promise<WebhookEntity> {
    return manager.getRepository(WebhookEntity).save(row);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(WebhookEntity).delete({ id });
  }

  /** The enabled webhooks that may hear about `serverId` (every administrator's, and the server's own). */
  listeners(serverId: string | null): Promise<Pick<WebhookEntity, 'id' | 'serverId' | 'events'>[]> {
    const query = this.webhooks.createQueryBuilder('w').select(['w.id', 'w.serverId', 'w.events']).where('w.enabled');
    if (serverId === null) {
      query.andWhere('w.server_id IS NULL');
    } else {
      query.andWhere('(w.server_id IS NULL OR w.server_id = :serverId)', { serverId });
    }
    return query.getMany();
  }

  async insertDeliveries(rows: NewDelivery[]): Promise<string[]> {
    if (rows.length === 0) {
      return [];
    }
    const result = await this.deliveries.insert(rows as QueryDeepPartialEntity<WebhookDeliveryEntity>[]);
    return result.identifiers.map((i) => String(i.id));
  }

  /**
   * Records that `event` is being alerted about `subject` at `now`, unless it already was after
   * `since`; whether it is to be sent. One statement, so two processes cannot both send it.
   */
  async claimAlert(subject: string, event: string, now: Date, since: Date): Promise<boolean> {
    const raw: unknown = await this.webhooks.manager.query(
      `INSERT INTO webhook_alert (subject, event, last_at) VALUES ($1, $2, $3)
       ON CONFLICT (subject, event) DO UPDATE SET last_at = EXCLUDED.last_at WHERE webhook_alert.last_at <= $4
       RETURNING subject`,
      [subject, event, now, since],
    );
    return returnedRows(raw).length > 0;
  }

  /** The last time `event` was alerted about `subject`, if ever. */
  async lastAlert(subject: string, event: string): Promise<Date | null> {
    const row = await this.webhooks.manager.getRepository(WebhookAlertEntity).findOneBy({ subject, event });
    return row?.lastAt ?? null;
  }

  /**
   * Takes up to `limit` pending deliveries due at `now` (or whose claim lapsed) for this process: their
   * next attempt moves to `leaseUntil`, so another process skips them until then, and their attempt
   * count goes up. Rows another process holds are skipped, not waited for.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    const raw: unknown = await this.deliveries.manager.query(
      `UPDATE webhook_delivery d SET next_attempt_at = $2, attempts = d.attempts + 1
       WHERE d.id IN (
         SELECT id FROM webhook_delivery WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${CLAIMED}`,
      [now, leaseUntil, limit],
    );
    return returnedRows<ClaimedDelivery>(raw);
  }

  /**
   * Takes one pending delivery: whenever it is due (a "send test"), or only if due at `dueBy` (its job
   * on the queue); null when it is not pending, not due, or another process has it.
   */
  async claimOne(id: string, leaseUntil: Date, dueBy?: Date): Promise<ClaimedDelivery | null> {
    const raw: unknown = await this.deliveries.manager.query(
      `UPDATE webhook_delivery d SET next_attempt_at = $2, attempts = d.attempts + 1
       WHERE d.id = $1 AND d.status = 'pending' AND ($3::timestamptz IS NULL OR d.next_attempt_at <= $3)
       RETURNING ${CLAIMED}`,
      [id, leaseUntil, dueBy ?? null],
    );
    return returnedRows<ClaimedDelivery>(raw)[0] ?? null;
  }

  /** Logs an attempt and moves the delivery on: done (`finishedAt`) or tried again at `nextAttemptAt`. */
  async recordAttempt(
    attempt: Omit<WebhookAttemptEntity, 'id' | 'delivery'>,
    outcome: { status: 'delivered' | 'failed'; finishedAt: Date } | { status: 'pending'; nextAttemptAt: Date },
  ): Promise<void> {
    await this.transaction(async (m) => {
      await m.getRepository(WebhookAttemptEntity).insert(attempt);
      await m
        .getRepository(WebhookDeliveryEntity)
        .update(
          { id: attempt.deliveryId },
          outcome.status === 'pending'
            ? { nextAttemptAt: outcome.nextAttemptAt }
            : { status: outcome.status, finishedAt: outcome.finishedAt, nextAttemptAt: null },
        );
    });
  }

  /** Gives a delivery up without an attempt (its webhook was switched off). */
  async abandon(id: string, finishedAt: Date): Promise<void> {
    await this.deliveries.update({ id }, { status: 'failed', finishedAt, nextAttemptAt: null });
  }

  /** A webhook's deliveries, newest first. */
  deliveryPage(webhookId: string, skip: number, take: number): Promise<[WebhookDeliveryEntity[], number]> {
    const query = this.deliveries.createQueryBuilder('d').where('d.webhook_id = :webhookId', { webhookId }).orderBy('d.id', 'DESC');
    return pageWithTotal(query, skip, take);
  }

  findDelivery(id: string): Promise<WebhookDeliveryEntity | null> {
    return this.deliveries.findOneBy({ id });
  }

  /** The attempts of these deliveries, oldest first. */
  attemptsOf(deliveryIds: string[]): Promise<WebhookAttemptEntity[]> {
    if (deliveryIds.length === 0) {
      return Promise.resolve([]);
    }
    return this.attemptRows.find({ where: { deliveryId: In(deliveryIds) }, order: { id: 'ASC' } });
  }

  /** Deletes deliveries finished before `before` (their attempts go with them); how many. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const result = await this.deliveries.createQueryBuilder().delete().where('finished_at < :before', { before }).execute();
    return result.affected ?? 0;
  }
}
