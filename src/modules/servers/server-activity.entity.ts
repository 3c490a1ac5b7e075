import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** The server activity log: power actions, console commands, file changes, and what the daemon reports. */
@Entity({ name: 'server_activity' })
@Index('IDX_server_activity_server_time', ['serverId', 'createdAt'])
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

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
