import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BackupAdapter, BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';

/** Where an archive is kept: the node's local disk (Wings' "wings" adapter) or an S3 bucket. */
type BackupDisk = BackupAdapter;

/**
 * One archive of a server's files. In progress until the daemon reports back
 * (`completed_at` set): then successful, with its checksum and size, or failed.
 */
@Entity({ name: 'backup' })
@Index('UQ_backup_uuid', ['uuid'], { unique: true })
@Index('IDX_backup_server_created', ['serverId', 'createdAt'])
@Index('IDX_backup_backup_host_id', ['backupHostId'])
export class BackupEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_backup' })
  id!: string;

  /** The archive's name on the node: `<backup_directory>/<uuid>.tar.gz`. */
  @Column({ type: 'uuid' })
  uuid!: string;

  @Column({ name: 'server_id', type: 'bigint' })
  serverId!: string;

  @ManyToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'FK_backup_server' })
  server?: ServerEntity;

  @Column({ type: 'varchar', length: 191 })
  name!: string;

  /** gitignore-style patterns left out of the archive. */
  @Column({ name: 'ignored_files', type: 'text', array: true, default: () => "'{}'" })
  ignoredFiles!: string[];

  @Column({ type: 'varchar', length: 32, default: 'wings' })
  disk!: BackupDisk;

  /** The S3 host the archive went to (disk `s3`), kept so download and delete find it after the node's host changes. */
  @Column({ name: 'backup_host_id', type: 'bigint', nullable: true })
  backupHostId!: string | null;

  @ManyToOne(() => BackupHostEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'backup_host_id', foreignKeyConstraintName: 'FK_backup_backup_host' })
  backupHost?: BackupHostEntity | null;

  /** The S3 multipart upload under way; cleared once it is completed or aborted. */
  @Column({ name: 'upload_id', type: 'varchar', length: 1024, nullable: true })
  uploadId!: string | null;

  /** `<type>:<hex>`, e.g. `sha1:…`, once the backup succeeded. */
  @Column({ type: 'varchar', length: 191, nullable: true })
  checksum!: string | null;

  /** Archive size; bigint, so a string. */
  @Column({ type: 'bigint', default: 0 })
  bytes!: string;

  @Column({ name: 'is_successful', type: 'boolean', default: false })
  isSuccessful!: boolean;

  /** A locked backup cannot be deleted, nor rotated away by a schedule. */
  @Column({ name: 'is_locked', type: 'boolean', default: false })
  isLocked!: boolean;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

export type BackupStatus = 'in_progress' | 'successful' | 'failed';

export const backupStatus = (b: Pick<BackupEntity, 'completedAt' | 'isSuccessful'>): BackupStatus =>
  b.completedAt === null ? 'in_progress' : b.isSuccessful ? 'successful' : 'failed';
