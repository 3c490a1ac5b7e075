import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';

/** A transfer's states (docs/admin-guide.md#transfers): the first three are active, the last three final. */
export const TRANSFER_STATES = ['pending', 'archiving', 'restoring', 'completed', 'failed', 'cancelled'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const ACTIVE_TRANSFER_STATES: readonly TransferState[] = ['pending', 'archiving', 'restoring'];

/** The SQL condition of an active transfer aliased `transfer` (the partial unique index's condition). */
export const ACTIVE_TRANSFER_SQL = "transfer.state IN ('pending', 'archiving', 'restoring')";

/** One step of a transfer: the state it entered, when, and why (for failed and cancelled). */
export interface TransferStep {
  state: TransferState;
  at: string;
  reason: string | null;
}

/**
 * A server's move from one node to another (Pterodactyl's server_transfers). The new allocations are
 * reserved for it (allocation.reserved_by_transfer_id) while it is active; at most one is active per server.
 */
@Entity({ name: 'server_transfer' })
@Index('UQ_server_transfer_active', ['serverId'], { unique: true, where: "state IN ('pending', 'archiving', 'restoring')" })
@Index('IDX_server_transfer_server_id', ['serverId'])
@Index('IDX_server_transfer_drain_id', ['drainId'])
export class ServerTransferEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server_transfer' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_server_transfer_server' })
  server?: ServerEntity;

  @Column({ name: 'old_node_id', type: 'bigint' })
  oldNodeId!: string;

  @ManyToOne(() => NodeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'old_node_id', foreignKeyConstraintName: 'FK_server_transfer_old_node' })
  oldNode?: NodeEntity;

  @Column({ name: 'new_node_id', type: 'bigint' })
  newNodeId!: string;

  @ManyToOne(() => NodeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'new_node_id', foreignKeyConstraintName: 'FK_server_transfer_new_node' })
  newNode?: NodeEntity;

  @Column({ name: 'old_allocation_id', type: 'bigint', nullable: true })
  oldAllocationId!: string | null;

  @Column({ name: 'old_additional_allocation_ids', type: 'bigint', array: true, default: () => "'{}'" })
  oldAdditionalAllocationIds!: string[];

  @Column({ name: 'new_allocation_id', type: 'bigint' })
  newAllocationId!: string;

  @Column({ name: 'new_additional_allocation_ids', type: 'bigint', array: true, default: () => "'{}'" })
  newAdditionalAllocationIds!: string[];

  @Column({ type: 'varchar', length: 16 })
  state!: TransferState;

  /** Why it failed or was cancelled. */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  /** Every step, oldest first. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  history!: TransferStep[];

  /** The drain of the old node that started it, if any. */
  @Column({ name: 'drain_id', type: 'bigint', nullable: true })
  drainId!: string | null;

  /** When it last moved (a step): the timeout counts from here. */
  @Column({ name: 'progressed_at', type: 'timestamptz' })
  progressedAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
