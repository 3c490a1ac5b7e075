import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ServerEntity } from 'src/modules/servers/server.entity';

export type WebhookKind = 'http' | 'discord';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * An endpoint told about the panel's events (docs/webhooks.md): an administrator's (every event,
 * `serverId` null) or a server's own (that server's events).
 */
@Entity({ name: 'webhook' })
@Index('IDX_webhook_server_id', ['serverId'])
export class WebhookEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_webhook' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint', nullable: true })
  serverId!: string | null;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_webhook_server' })
  server?: ServerEntity;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: WebhookKind;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** Event names, or `*` alone for all of them. */
  @Column({ type: 'text', array: true })
  events!: string[];

  /** The signing secret, sealed (SecretBox, context `webhook:<id>:secret`); null for Discord. */
  @Column({ type: 'text', nullable: true })
  secret!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** One event queued for one endpoint, tried until it is answered with 2xx or the retries run out. */
@Entity({ name: 'webhook_delivery' })
@Index('IDX_webhook_delivery_webhook_id_id', ['webhookId', 'id'])
@Index('IDX_webhook_delivery_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_webhook_delivery' })
  id!: string;

  /** Sent as X-Hatchery-Delivery and the body's `id`: the same on every attempt, for receivers to skip repeats. */
  @Column({ type: 'uuid' })
  uuid!: string;

  @Column({ name: 'webhook_id', type: 'bigint' })
  webhookId!: string;

  @ManyToOne(() => WebhookEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id', foreignKeyConstraintName: 'FK_webhook_delivery_webhook' })
  webhook?: WebhookEntity;

  @Column({ type: 'varchar', length: 32 })
  event!: string;

  /** The JSON body of an `http` endpoint (a Discord body is made from it). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** When a pending delivery is next tried (while one is being tried: when its claim lapses). */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** A "send test" delivery: tried once, never retried. */
  @Column({ type: 'boolean', default: false })
  test!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

/** One try of a delivery: the answer's status, or why there was none. */
@Entity({ name: 'webhook_delivery_attempt' })
@Index('IDX_webhook_delivery_attempt_delivery_id', ['deliveryId'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_webhook_delivery_attempt' })
  id!: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_delivery_attempt_delivery' })
  delivery?: WebhookDeliveryEntity;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** The HTTP status the endpoint answered; null when it did not answer. */
  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode!: number | null;

  /** Why there was no answer, or the start of a failed answer's body. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;
}

/** When an alert was last sent about a server or node: alerts go at most once per 10 minutes each. */
@Entity({ name: 'webhook_alert' })
export class WebhookAlertEntity {
  /** `server:<id>` or `node:<id>`. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_webhook_alert' })
  subject!: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_webhook_alert' })
  event!: string;

  @Column({ name: 'last_at', type: 'timestamptz' })
  lastAt!: Date;
}
