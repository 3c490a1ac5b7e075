import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from 'src/modules/users/user.entity';

export interface AuditChanges {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

// Each filter's index ends in the id, the list's order, so a filtered page and its cursor read in
// index order; created_at is what retention deletes by.
@Entity({ name: 'audit_log' })
@Index('IDX_audit_log_created_at', ['createdAt'])
@Index('IDX_audit_log_action', ['action', 'id'])
@Index('IDX_audit_log_actor_id', ['actorId', 'id'])
@Index('IDX_audit_log_target', ['targetType', 'targetId', 'id'])
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_audit_log' })
  id!: string;

  /** Null once the acting user is deleted; `actorUsername` keeps who it was. */
  @Column({ name: 'actor_id', type: 'bigint', nullable: true })
  actorId!: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_audit_log_actor' })
  actor?: UserEntity | null;

  @Column({ name: 'actor_username', type: 'varchar', length: 191, nullable: true })
  actorUsername!: string | null;

  /** `session` or the identifier of the API key used. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  via!: string | null;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType!: string;

  @Column({ name: 'target_id', type: 'varchar', length: 64 })
  targetId!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  changes!: AuditChanges;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  /** Part of the primary key: the table is partitioned by month of it (migration PartitionLogsByMonth). */
  @PrimaryColumn({ name: 'created_at', type: 'timestamptz', primaryKeyConstraintName: 'PK_audit_log' })
  createdAt!: Date;
}

/**
 * How many audit_log rows there are, kept by triggers in the transaction that inserts or deletes
 * them (migration AddLogCursorsAndCounts). The count is spread over a few slots, chosen by the
 * writing session, so concurrent writers rarely wait on one row; the total is their sum.
 */
@Entity({ name: 'audit_log_count' })
export class AuditLogCountEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_audit_log_count' })
  slot!: number;

  @Column({ type: 'bigint', default: 0 })
  n!: string;
}
