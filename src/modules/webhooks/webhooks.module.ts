import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { outboundPolicyProvider } from 'src/common/http/outbound-policy.provider';
import { AuditModule } from 'src/modules/audit/audit.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { WebhookAlertEntity, WebhookAttemptEntity, WebhookDeliveryEntity, WebhookEntity } from 'src/modules/webhooks/webhook.entity';
import { WebhookDeliveryJob } from 'src/modules/webhooks/webhook-delivery.job';
import { WebhookDispatcher } from 'src/modules/webhooks/webhook-dispatcher';
import { AdminWebhooksController, ServerWebhooksController } from 'src/modules/webhooks/webhooks.controller';
import { WebhooksRepository } from 'src/modules/webhooks/webhooks.repository';
import { WebhooksService } from 'src/modules/webhooks/webhooks.service';

/**
 * Webhooks (docs/webhooks.md): endpoints of administrators and servers, told about the panel's events
 * (PanelEvents) by queued, signed, retried deliveries. Nothing depends on this module: the events come
 * to it through PanelEvents.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEntity, WebhookDeliveryEntity, WebhookAttemptEntity, WebhookAlertEntity]), AuditModule, ServersModule],
  controllers: [AdminWebhooksController, ServerWebhooksController],
  // Outbound requests never reach private addresses unless OUTBOUND_ALLOW_PRIVATE (not in production).
  providers: [WebhooksRepository, WebhooksService, WebhookDeliveryJob, WebhookDispatcher, SecretBox, outboundPolicyProvider],
})
export class WebhooksModule {}
