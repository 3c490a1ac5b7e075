import { Transform } from 'class-transformer';
import { PageMetaDto } from 'src/common/http/api-responses';
import { IsBoolean, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { BackupEntity, backupStatus, BackupStatus } from 'src/modules/backups/backup.entity';

/** Wings reads a server's `.pteroignore` up to this size; an ignore list sent with a backup is held to the same. */
const IGNORED_MAX_BYTES = 32 * 1024;

export class CreateBackupDto {
  /** Defaults to `Backup at <time>`. */
  @Optional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name?: string;

  /** gitignore-style patterns, one a line, left out of the archive; without them Wings uses the server's `.pteroignore`. */
  @Optional()
  @IsString()
  @ValidateBy(
    { name: 'maxBytes', validator: { validate: (v: unknown) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') <= IGNORED_MAX_BYTES } },
    { message: `ignored must be at most ${IGNORED_MAX_BYTES} bytes` },
  )
  ignored?: string;

  /** Needs server.backup.delete too, since a locked backup cannot be deleted. */
  @Optional()
  @IsBoolean()
  is_locked?: boolean;
}

export class RestoreBackupDto {
  /** Delete every server file first, instead of extracting over what is there. */
  @Optional()
  @IsBoolean()
  truncate?: boolean;
}

export class BackupResponseDto {
  id!: string;
  uuid!: string;
  name!: string;
  ignoredFiles!: string[];
  /** `sha1:<hex>` once successful. */
  checksum!: string | null;
  bytes!: number;
  isSuccessful!: boolean;
  isLocked!: boolean;
  status!: BackupStatus;
  createdAt!: string;
  completedAt!: string | null;
}

export class BackupDownloadDto {
  /** A one-time, 15-minute URL on the node. */
  url!: string;
}

export const toBackupResponse = (b: BackupEntity): BackupResponseDto => ({
  id: b.id,
  uuid: b.uuid,
  name: b.name,
  ignoredFiles: [...b.ignoredFiles],
  checksum: b.checksum,
  bytes: Number(b.bytes),
  isSuccessful: b.isSuccessful,
  isLocked: b.isLocked,
  status: backupStatus(b),
  createdAt: b.createdAt.toISOString(),
  completedAt: b.completedAt?.toISOString() ?? null,
});

export class BackupListMetaDto extends PageMetaDto {
  /** Backups that count toward the limit: in progress or successful. */
  backupCount!: number;
  /** null: no limit; 0: backups are disabled for the server. */
  backupLimit!: number | null;
}
