import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PANEL_EVENTS } from 'src/common/events/panel-events';
import { Optional } from 'src/common/validation/decorators';
import type { DeliveryStatus, WebhookKind } from 'src/modules/webhooks/webhook.entity';

const WEBHOOK_KINDS: readonly WebhookKind[] = ['http', 'discord'];
/** What `events` may hold: an event's name, or `*` alone for every event the webhook may hear. */
const EVENT_CHOICES = ['*', ...PANEL_EVENTS];

/** A secret a receiver checks signatures with: printable, 16 to 128 characters. */
const SECRET = /^[\x21-\x7e]{16,128}$/;

export class CreateWebhookDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name!: string;

  /** `http`: a signed JSON body. `discord`: a Discord webhook URL, sent an embed. */
  @ApiProperty({ enum: WEBHOOK_KINDS })
  @IsIn(WEBHOOK_KINDS, { message: `kind must be one of: ${WEBHOOK_KINDS.join(', ')}` })
  kind!: WebhookKind;

  /** http(s), resolving only to public addresses (the rules of pulls from URLs). */
  @IsString()
  @MaxLength(2048)
  url!: string;

  /** Event names (docs/webhooks.md#events), or `["*"]` for all. */
  @ApiProperty({ type: [String], enum: EVENT_CHOICES })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_CHOICES.length)
  @ArrayUnique()
  @IsIn(EVENT_CHOICES, { each: true, message: 'each of events must be an event name or *' })
  events!: string[];

  /** `http` only: the signing secret (16–128 printable characters). Left out of a create, one is made and shown once. */
  @Optional()
  @IsString()
  @Matches(SECRET, { message: 'secret must be 16 to 128 printable characters without spaces' })
  secret?: string;

  /** Default true. */
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

/** Any field of a create but its kind; `secret` replaces the secret. */
export class UpdateWebhookDto extends PartialType(OmitType(CreateWebhookDto, ['kind'] as const), { skipNullProperties: false }) {
  /** `http` only: make a new secret, shown once in the answer. */
  @Optional()
  @IsBoolean()
  rotateSecret?: boolean;
}

/** A webhook as lists show it: never its secret. */
export class WebhookDto {
  id!: string;
  name!: string;
  @ApiProperty({ enum: WEBHOOK_KINDS })
  kind!: WebhookKind;
  /** A Discord URL's token is shown as `…`: it is a credential. */
  url!: string;
  events!: string[];
  enabled!: boolean;
  /** Whether it signs its bodies (`http` kind). */
  hasSecret!: boolean;
  /** The server it belongs to; null for an administrator's. */
  serverId!: string | null;
  createdAt!: string;
  updatedAt!: string;
}

/** The answer to a create (or a rotated secret): the secret, this once. */
export class WebhookWithSecretDto extends WebhookDto {
  /** Present only in the answer that made it. */
  secret?: string;
}

class DeliveryAttemptDto {
  at!: string;
  /** The endpoint's HTTP status; null when it did not answer. */
  statusCode!: number | null;
  error!: string | null;
  durationMs!: number;
}

export class WebhookDeliveryDto {
  id!: string;
  event!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status!: DeliveryStatus;
  test!: boolean;
  attempts!: DeliveryAttemptDto[];
  /** When it is tried next, while pending. */
  nextAttemptAt!: string | null;
  createdAt!: string;
  finishedAt!: string | null;
  /** The body sent (before a Discord embed is made of it). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload!: Record<string, unknown>;
}
