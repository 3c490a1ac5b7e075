import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';

/** `revoking` while a delete is being carried out on the host. */
export const DATABASE_STATUSES = ['ready', 'revoking'] as const;
export type DatabaseStatus = (typeof DATABASE_STATUSES)[number];

/**
 * A customer database on a host: `s{serverId}_{name}` with its own user `u{serverId}_{name}`@`remote`.
 * Its password is never stored: it is shown once, at creation and at each rotation.
 */
@Entity({ name: 'server_database' })
@Index('UQ_server_database_server_database', ['serverId', 'database'], { unique: true })
@Index('IDX_server_database_host_id', ['hostId'])
export class ServerDatabaseEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_server_database' })
  id!: string;

  // RESTRICT: a server row goes only after its databases are dropped on their hosts.
  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_server_database_server' })
  server?: ServerEntity;

  @Column({ name: 'host_id', type: 'bigint' })
  hostId!: string;

  @ManyToOne(() => DatabaseHostEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'host_id', foreignKeyConstraintName: 'FK_server_database_host' })
  host?: DatabaseHostEntity;

  /** The full database name on the host, `s{serverId}_{name}` (at most 64 characters). */
  @Column({ type: 'varchar', length: 64 })
  database!: string;

  /** `u{serverId}_{name}` (at most 32 characters, MySQL's limit). */
  @Column({ type: 'varchar', length: 32 })
  username!: string;

  /** The user's host part: where connections may come from; `%` = anywhere. */
  @Column({ type: 'varchar', length: 60 })
  remote!: string;

  /** MAX_USER_CONNECTIONS given to the user at creation; null = none. */
  @Column({ name: 'max_connections', type: 'integer', nullable: true })
  maxConnections!: number | null;

  @Column({ type: 'varchar', length: 16, default: 'ready' })
  status!: DatabaseStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
