import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { SERVER_EVENTS } from 'src/common/events/panel-events';
import { assertPublicUrl, OutboundPolicy } from 'src/common/http/outbound-url';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import type { AuditChanges } from 'src/modules/audit/audit-log.entity';
import { AuditService } from 'src/modules/audit/audit.service';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from 'src/modules/webhooks/dto/webhook.dto';
import type { WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEntity } from 'src/modules/webhooks/webhook.entity';
import { sealContext, WebhookDeliveryJob } from 'src/modules/webhooks/webhook-delivery.job';
import { newDelivery, shownUrl, TEST_EVENT } from 'src/modules/webhooks/webhook-payload';
import { WebhookError } from 'src/modules/webhooks/webhooks.errors';
import { WebhooksRepository } from 'src/modules/webhooks/webhooks.repository';

/** Whose webhooks: an administrator's (`server` null) or one server's. */
export interface WebhookScope {
  server: { id: string; uuid: string; name: string; nodeId: string } | null;
}

const LIMIT = { admin: 50, server: 10 };

/** What the audit log and the activity log record of a webhook: never its secret nor a Discord token. */
const described = (w: WebhookEntity) => ({ name: w.name, kind: w.kind, url: shownUrl(w.kind, w.url), events: w.events, enabled: w.enabled });

const toDto = (w: WebhookEntity): WebhookDto => ({
  id: w.id,
  name: w.name,
  kind: w.kind,
  url: shownUrl(w.kind, w.url),
  events: w.events,
  enabled: w.enabled,
  hasSecret: w.secret !== null,
  serverId: w.serverId,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

const toDeliveryDto = (d: WebhookDeliveryEntity, attempts: WebhookAttemptEntity[]): WebhookDeliveryDto => ({
  id: d.id,
  event: d.event,
  status: d.status,
  test: d.test,
  attempts: attempts.map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
  nextAttemptAt: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
  createdAt: d.createdAt.toISOString(),
  finishedAt: d.finishedAt?.toISOString() ?? null,
  payload: d.payload,
});

const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const invalid = (field: string, message: string): AppException => new AppException(CommonError.VALIDATION_FAILED, { details: [{ field, message }] });

const DISCORD_SECRET = 'secret is for http webhooks; Discord does not check signatures';

/** Webhooks of administrators and of servers (docs/webhooks.md): the routes' work. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly secrets: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly job: WebhookDeliveryJob,
    private readonly audit: AuditService,
    private readonly activity: ServerActivityLog,
    private readonly clock: Clock,
  ) {}

  async list(scope: WebhookScope, page: Page): Promise<Paginated<WebhookDto>> {
    const [rows, total] = await this.repo.page(scope.server?.id ?? null, page.skip, page.perPage);
    return paginated(rows.map(toDto), total, page);
  }

  async get(scope: WebhookScope, id: string): Promise<WebhookDto> {
    return toDto(await this.require(scope, id));
  }

  async create(scope: WebhookScope, dto: CreateWebhookDto, actor: Actor): Promise<WebhookWithSecretDto> {
    const events = this.checkEvents(scope, dto.events);
    const url = await this.checkUrl(dto.url);
    if (dto.kind === 'discord' && dto.secret !== undefined) {
      throw invalid('secret', DISCORD_SECRET);
    }
    const secret = dto.kind === 'http' ? (dto.secret ?? newSecret()) : null;
    const serverId = scope.server?.id ?? null;
    const saved = await this.repo.transaction(async (m) => {
      if ((await this.repo.count(serverId, m)) >= (serverId ? LIMIT.server : LIMIT.admin)) {
        throw new AppException(WebhookError.TOO_MANY, { message: `At most ${serverId ? LIMIT.server : LIMIT.admin} webhooks can be added here` });
      }
      const row = await this.repo.save({ serverId, name: dto.name, kind: dto.kind, url, events, secret: null, enabled: dto.enabled ?? true }, m);
      // Sealed under the row's id, so the secret cannot be moved to another webhook.
      row.secret = secret === null ? null : this.secrets.seal(secret, sealContext(row.id));
      await this.repo.save(row, m);
      await this.log(scope, actor, 'created', row, { after: described(row) }, m);
      return row;
    });
    // Shown in this answer only when the caller did not choose it.
    return { ...toDto(saved), ...(secret !== null && dto.secret === undefined ? { secret } : {}) };
  }

  async update(scope: WebhookScope, id: string, dto: UpdateWebhookDto, actor: Actor): Promise<WebhookWithSecretDto> {
    const events = dto.events ? this.checkEvents(scope, dto.events) : undefined;
    const url = dto.url !== undefined ? await this.checkUrl(dto.url) : undefined;
    let rotated: string | null = null;
    const saved = await this.repo.transaction(async (m) => {
      const current = await this.require(scope, id, m);
      if (current.kind !== 'http' && (dto.secret !== undefined || dto.rotateSecret)) {
        throw invalid('secret', DISCORD_SECRET);
      }
      const before = described(current);
      if (dto.rotateSecret) {
        rotated = newSecret();
      }
      const secret = dto.secret ?? rotated;
      const row = await this.repo.save(
        {
          ...current,
          ...(dto.name !== undefined ? { name: dto.name } : {}),
          ...(url !== undefined ? { url } : {}),
          ...(events !== undefined ? { events } : {}),
          ...(dto.enabled !== undefined ? { enabled: dto.enabled } : {}),
          ...(secret ? { secret: this.secrets.seal(secret, sealContext(current.id)) } : {}),
        },
        m,
      );
      await this.log(scope, actor, 'updated', row, { before, after: { ...described(row), ...(secret ? { secret: 'changed' } : {}) } }, m);
      return row;
    });
    return { ...toDto(saved), ...(rotated !== null ? { secret: rotated } : {}) };
  }

  async delete(scope: WebhookScope, id: string, actor: Actor): Promise<void> {
    await this.repo.transaction(async (m) => {
      const current = await this.require(scope, id, m);
      await this.repo.delete(id, m);
      await this.log(scope, actor, 'deleted', current, { before: described(current) }, m);
    });
  }

  async deliveries(scope: WebhookScope, id: string, page: Page): Promise<Paginated<WebhookDeliveryDto>> {
    await this.require(scope, id);
    const [rows, total] = await this.repo.deliveryPage(id, page.skip, page.perPage);
    const attempts = await this.repo.attemptsOf(rows.map((d) => d.id));
    return paginated(
      rows.map((d) => toDeliveryDto(d, attempts.filter((a) => a.deliveryId === d.id))),
      total,
      page,
    );
  }

  /** Sends a `webhook.test` event now, once, and answers how it went; a switched-off webhook is refused one (400 on `enabled`). */
  async test(scope: WebhookScope, id: string, actor: Actor): Promise<WebhookDeliveryDto> {
    const hook = await this.require(scope, id);
    if (!hook.enabled) {
      throw new AppException(CommonError.VALIDATION_FAILED, { message: 'The webhook is switched off; switch it on to send a test', details: [{ field: 'enabled', message: 'the webhook is switched off' }] });
    }
    const now = this.clock.now();
    const data = { message: `A test from Hatchery, sent by ${actor.username ?? 'an administrator'}` };
    const [deliveryId] = await this.repo.insertDeliveries([newDelivery(hook.id, TEST_EVENT, { server: scope.server ?? undefined, data }, now, true)]);
    await this.job.sendNow(deliveryId);
    const delivery = (await this.repo.findDelivery(deliveryId))!;
    return toDeliveryDto(delivery, await this.repo.attemptsOf([deliveryId]));
  }

  private async require(scope: WebhookScope, id: string, manager?: EntityManager): Promise<WebhookEntity> {
    const hook = await this.repo.find(id, scope.server?.id ?? null, manager);
    if (!hook) {
      throw new AppException(WebhookError.NOT_FOUND);
    }
    return hook;
  }

  /** `*` alone stands for all; a server's webhook hears only events about a server. */
  private checkEvents(scope: WebhookScope, events: string[]): string[] {
    if (events.includes('*')) {
      return ['*'];
    }
    const refused = scope.server ? events.filter((e) => !SERVER_EVENTS.includes(e as (typeof SERVER_EVENTS)[number])) : [];
    if (refused.length > 0) {
      throw new AppException(WebhookError.EVENT_NOT_ALLOWED, {
        message: `A server's webhook cannot subscribe to ${refused.join(', ')}`,
        details: [{ field: 'events', message: `not events about a server: ${refused.join(', ')}` }],
      });
    }
    return events;
  }

  private async checkUrl(raw: string): Promise<string> {
    // Normalising can lengthen it (an international name in punycode): the column holds 2048.
    if (URL.canParse(raw) && new URL(raw).href.length > 2048) {
      throw invalid('url', 'url must be shorter than or equal to 2048 characters');
    }
    return (await assertPublicUrl(raw, this.policy)).href;
  }

  private async log(scope: WebhookScope, actor: Actor, what: 'created' | 'updated' | 'deleted', hook: WebhookEntity, changes: AuditChanges, m: EntityManager): Promise<void> {
    if (scope.server) {
      await this.activity.byUser(scope.server.id, actor, `server.webhook.${what === 'created' ? 'create' : what === 'updated' ? 'update' : 'delete'}`, { webhookId: hook.id, ...changes }, { manager: m });
    } else {
      await this.audit.record(m, actor, { action: `webhook.${what}`, targetType: 'webhook', targetId: hook.id, changes });
    }
  }
}
