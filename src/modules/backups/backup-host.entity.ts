import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Where a node's backups go: `wings` keeps them on the node's disk, `s3` sends them to a bucket (docs/backup-hosts.md). */
export const BACKUP_ADAPTERS = ['wings', 's3'] as const;
export type BackupAdapter = (typeof BACKUP_ADAPTERS)[number];

/** Part size bounds in MiB: S3 refuses parts under 5 MiB (but the last) and over 5 GiB. */
export const PART_SIZE_MIN_MIB = 5;
export const PART_SIZE_MAX_MIB = 5120;
export const PART_SIZE_DEFAULT_MIB = 128;

/** A backup destination an administrator defines and gives to nodes. */
@Entity({ name: 'backup_host' })
@Index('UQ_backup_host_name', ['name'], { unique: true })
export class BackupHostEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_backup_host' })
  id!: string;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  adapter!: BackupAdapter;

  /** S3 endpoint URL; null = AWS (chosen from the region). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  endpoint!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  region!: string | null;

  @Column({ type: 'varchar', length: 63, nullable: true })
  bucket!: string | null;

  /** Prepended to each object key, e.g. `hatchery/`; empty for none. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 255, default: '' })
  keyPrefix!: string;

  @Column({ name: 'access_key_id', type: 'varchar', length: 128, nullable: true })
  accessKeyId!: string | null;

  /** The secret access key, sealed with SecretBox (context `backup-host:<id>:secret`); never returned. */
  @Column({ name: 'secret_access_key', type: 'text', nullable: true })
  secretAccessKey!: string | null;

  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, most self-hosted stores). */
  @Column({ name: 'path_style', type: 'boolean', default: false })
  pathStyle!: boolean;

  /** MiB per multipart upload part. */
  @Column({ name: 'part_size_mib', type: 'integer', default: PART_SIZE_DEFAULT_MIB })
  partSizeMib!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** The row-bound context a secret key is sealed with: a sealed value cannot be moved to another host. */
export const backupHostSecretContext = (host: Pick<BackupHostEntity, 'id'>): string => `backup-host:${host.id}:secret`;
