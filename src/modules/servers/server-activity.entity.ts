import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** The server activity log: power actions, console commands, file changes, and what the daemon reports. */
// A server's list reads (server_id, created_at, id) in order, an event filter (server_id, event...).
// Retention finds old rows through a BRIN index on created_at (migration AddLogCursorsAndCounts, not
// synchronized: TypeORM cannot declare BRIN): a b-tree there tempts the planner to walk every server's
// rows by time for one server's page, which is slow for a server whose entries are all old.
@Entity({ name: 'server_activity' })
@Index('IDX_server_activity_server_time', ['serverId', 'createdAt', 'id'])
@Index('IDX_server_activity_server_event', ['serverId', 'event', 'createdAt', 'id'])
@Index('IDX_server_activity_created_at', { synchronize: false })
export class ServerActivityEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server_activity' })
  id!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_server_activity_server' })
  server?: ServerEntity;

  @Column({ name: 'actor_id', type: 'bigint', nullable: true })
  actorId!: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'actor_id', foreignKeyConstraintName: 'FK_server_activity_actor' })
  actor?: UserEntity | null;

  @Column({ name: 'actor_username', type: 'varchar', length: 191, nullable: true })
  actorUsername!: string | null;

  /** e.g. `server.power.start`, `server.file.write`, `server.console.command`. */
  @Column({ type: 'varchar', length: 64 })
  event!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  /** `session`, `api-key:<identifier>`, or `daemon` for entries Wings sent. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  via!: string | null;

  /** Part of the primary key: the table is partitioned by month of it (migration PartitionLogsByMonth). */
  @PrimaryColumn({ name: 'created_at', type: 'timestamptz', primaryKeyConstraintName: 'PK_server_activity' })
  createdAt!: Date;
}

/**
 * How many server_activity rows each server has, kept by triggers in the transaction that inserts or
 * deletes them (migration AddLogCursorsAndCounts), over a few slots per server chosen by the writing
 * session so that concurrent writers rarely wait on one row. A server with no rows has no slots.
 */
@Entity({ name: 'server_activity_count' })
export class ServerActivityCountEntity {
  @PrimaryColumn({ name: 'server_id', type: 'bigint', primaryKeyConstraintName: 'PK_server_activity_count' })
  serverId!: string;

  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_server_activity_count' })
  slot!: number;

  @Column({ type: 'bigint', default: 0 })
  n!: string;
}
