import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { NodeEntity } from 'src/modules/nodes/node.entity';

/** A MySQL or MariaDB server the panel creates customer databases on. */
@Entity({ name: 'database_host' })
@Index('UQ_database_host_name', ['name'], { unique: true })
@Index('IDX_database_host_node_id', ['nodeId'])
export class DatabaseHostEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_database_host' })
  id!: string;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  /** Host name or IP address the panel connects to, and that customers are shown. */
  @Column({ type: 'varchar', length: 255 })
  host!: string;

  @Column({ type: 'integer', default: 3306 })
  port!: number;

  /** The account the panel manages databases and users with (needs CREATE USER and GRANT OPTION). */
  @Column({ type: 'varchar', length: 80 })
  username!: string;

  /** That account's password, sealed with SecretBox (context `database-host:<id>:password`); never returned. */
  @Column({ type: 'text' })
  password!: string;

  /** Databases this host takes at most; null = no limit, 0 = takes no new ones. */
  @Column({ name: 'max_databases', type: 'integer', nullable: true })
  maxDatabases!: number | null;

  /** MAX_USER_CONNECTIONS given to each user created here; null = the host's default. */
  @Column({ name: 'max_user_connections', type: 'integer', nullable: true })
  maxUserConnections!: number | null;

  /** Servers on this node get their databases here; null = a global host, used when a node has none of its own. */
  @Column({ name: 'node_id', type: 'bigint', nullable: true })
  nodeId!: string | null;

  @ManyToOne(() => NodeEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'node_id', foreignKeyConstraintName: 'FK_database_host_node' })
  node?: NodeEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** The row-bound context a host password is sealed with: a sealed value cannot be moved to another host. */
export const hostPasswordContext = (host: Pick<DatabaseHostEntity, 'id'>): string => `database-host:${host.id}:password`;
