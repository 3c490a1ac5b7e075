import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { LocationEntity } from 'src/modules/nodes/location.entity';

export const NODE_SCHEMES = ['http', 'https'] as const;
export type NodeScheme = (typeof NODE_SCHEMES)[number];

/** How the panel authenticates to the daemon (docs/wings.md#authentication). */
export const DAEMON_AUTH_MODES = ['token', 'combined'] as const;
export type DaemonAuthMode = (typeof DAEMON_AUTH_MODES)[number];

@Entity({ name: 'node' })
@Index('UQ_node_uuid', ['uuid'], { unique: true })
@Index('UQ_node_base_url', ['baseUrl'], { unique: true })
@Index('UQ_node_token_identifier', ['tokenIdentifier'], { unique: true })
@Index('IDX_node_location_id', ['locationId'])
@Index('IDX_node_backup_host_id', ['backupHostId'])
// pg_trgm index for the server search by node name (AddNodeNameTrigramIndex): an expression TypeORM does not model.
@Index('IDX_node_name_trgm', { synchronize: false })
export class NodeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_node' })
  id!: string;

  @Column({ type: 'uuid' })
  uuid!: string;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** `scheme://fqdn:daemonListen`, the address the panel reaches the daemon at; kept in step by the service. */
  @Column({ name: 'base_url', type: 'varchar', length: 320 })
  baseUrl!: string;

  @Column({ type: 'varchar', length: 255 })
  fqdn!: string;

  @Column({ type: 'varchar', length: 5, default: 'https' })
  scheme!: NodeScheme;

  @Column({ type: 'boolean', default: true })
  public!: boolean;

  @Column({ name: 'maintenance_mode', type: 'boolean', default: false })
  maintenanceMode!: boolean;

  /** Accept a self-signed daemon certificate. */
  @Column({ name: 'allow_insecure', type: 'boolean', default: false })
  allowInsecure!: boolean;

  /** TLS ends at a proxy in front of the daemon, which then serves plain HTTP itself. */
  @Column({ name: 'behind_proxy', type: 'boolean', default: false })
  behindProxy!: boolean;

  /** MiB. */
  @Column({ type: 'integer' })
  memory!: number;

  /** Percent; -1 disables the check. */
  @Column({ name: 'memory_overallocate', type: 'integer', default: 0 })
  memoryOverallocate!: number;

  /** MiB. */
  @Column({ type: 'integer' })
  disk!: number;

  @Column({ name: 'disk_overallocate', type: 'integer', default: 0 })
  diskOverallocate!: number;

  /** MiB. */
  @Column({ name: 'upload_size', type: 'integer', default: 100 })
  uploadSize!: number;

  @Column({ name: 'daemon_base', type: 'varchar', length: 255, default: '/var/lib/pterodactyl/volumes' })
  daemonBase!: string;

  @Column({ name: 'daemon_listen', type: 'integer', default: 8080 })
  daemonListen!: number;

  @Column({ name: 'daemon_sftp', type: 'integer', default: 2022 })
  daemonSftp!: number;

  @Column({ name: 'daemon_auth', type: 'varchar', length: 16, default: 'token' })
  daemonAuth!: DaemonAuthMode;

  @Column({ name: 'token_identifier', type: 'varchar', length: 16 })
  tokenIdentifier!: string;

  /** The 64-character daemon token, sealed with SecretBox; never returned by the admin API. */
  @Column({ name: 'token_secret', type: 'text' })
  tokenSecret!: string;

  @Column({ name: 'location_id', type: 'bigint', nullable: true })
  locationId!: string | null;

  @ManyToOne(() => LocationEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'location_id', foreignKeyConstraintName: 'FK_node_location' })
  location?: LocationEntity | null;

  /** Where the node's backups go; null (or a `wings` host) keeps them on the node. */
  @Column({ name: 'backup_host_id', type: 'bigint', nullable: true })
  backupHostId!: string | null;

  @ManyToOne(() => BackupHostEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'backup_host_id', foreignKeyConstraintName: 'FK_node_backup_host' })
  backupHost?: BackupHostEntity | null;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  /** When the panel first heard from the node's daemon (a call of Wings, or its answer); null until then. */
  @Column({ name: 'daemon_contacted_at', type: 'timestamptz', nullable: true })
  daemonContactedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** Where the panel reaches a node's daemon: `{scheme}://{fqdn}:{daemonListen}`, one node per address (UQ_node_base_url). */
export const baseUrlOf = (n: Pick<NodeEntity, 'scheme' | 'fqdn' | 'daemonListen'>): string => `${n.scheme}://${n.fqdn.toLowerCase()}:${n.daemonListen}`;
