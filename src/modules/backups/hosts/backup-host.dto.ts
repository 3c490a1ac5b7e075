import { PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import {
  BACKUP_ADAPTERS,
  BackupAdapter,
  BackupHostEntity,
  PART_SIZE_MAX_MIB,
  PART_SIZE_MIN_MIB,
} from 'src/modules/backups/backup-host.entity';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
/** An empty text field of the form means "none". */
const emptyToNull = ({ value }: { value: unknown }): unknown => (typeof value === 'string' && value.trim() === '' ? null : trim({ value }));
const isS3 = (o: { adapter?: BackupAdapter }): boolean => o.adapter === 's3';

/** S3's bucket naming rules: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,64}$/;
/** No leading slash, no `..` segment, printable characters only. */
const KEY_PREFIX = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\x21-\x7e]{0,255}$/;

export class CreateBackupHostDto {
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  /** `wings`: on each node's disk (no other field is used); `s3`: to the bucket below. */
  @IsIn(BACKUP_ADAPTERS)
  adapter!: BackupAdapter;

  /** The S3 endpoint, e.g. `https://s3.eu-central-003.backblazeb2.com`; null or empty = AWS itself. */
  @Optional({ nullable: true })
  @Transform(emptyToNull)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'endpoint must be an http(s) URL' })
  @MaxLength(255)
  endpoint?: string | null;

  /** Defaults to us-east-1. */
  @Optional({ nullable: true })
  @Transform(emptyToNull)
  @Matches(REGION, { message: 'region must be an S3 region name such as eu-central-1' })
  region?: string | null;

  @ValidateIf(isS3)
  @Transform(trim)
  @Matches(BUCKET_NAME, { message: 'bucket must be an S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)' })
  bucket?: string;

  /** Put before every object key, e.g. `hatchery/`. */
  @Optional()
  @Transform(trim)
  @IsString()
  @Matches(KEY_PREFIX, { message: 'keyPrefix must be up to 255 printable characters, without a leading slash or a .. segment' })
  keyPrefix?: string;

  @ValidateIf(isS3)
  @Transform(trim)
  @IsString()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'accessKeyId must be 1 to 128 printable characters' })
  accessKeyId?: string;

  /** Write-only: stored encrypted, never returned. On update, leave it out to keep the stored one. */
  @ValidateIf(isS3)
  @IsString()
  @Matches(/^[\x21-\x7e]{1,255}$/, { message: 'secretAccessKey must be 1 to 255 printable characters' })
  secretAccessKey?: string;

  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and most self-hosted stores need. */
  @Optional()
  @IsBoolean()
  pathStyle?: boolean;

  /** MiB per upload part (default 128). Raised for an archive that would need more than 10,000 parts. */
  @Optional()
  @IsInt()
  @Min(PART_SIZE_MIN_MIB)
  @Max(PART_SIZE_MAX_MIB)
  partSizeMib?: number;
}

/** Any field; the S3 fields are checked against the stored ones when the adapter is s3. */
export class UpdateBackupHostDto extends PartialType(CreateBackupHostDto, { skipNullProperties: false }) {}

/** A backup host as the admin API shows it: the secret key never leaves, only whether one is set. */
export class BackupHostResponseDto {
  id!: string;
  name!: string;
  adapter!: BackupAdapter;
  endpoint!: string | null;
  region!: string | null;
  bucket!: string | null;
  keyPrefix!: string;
  accessKeyId!: string | null;
  /** Whether a secret access key is stored. */
  secretSet!: boolean;
  pathStyle!: boolean;
  partSizeMib!: number;
  /** Nodes that send their backups here. */
  nodes!: number;
  /** Backups stored here. */
  backups!: number;
  createdAt!: string;
  updatedAt!: string;
}

export const toBackupHostResponse = (h: BackupHostEntity, use: { nodes: number; backups: number }): BackupHostResponseDto => ({
  id: h.id,
  name: h.name,
  adapter: h.adapter,
  endpoint: h.endpoint,
  region: h.region,
  bucket: h.bucket,
  keyPrefix: h.keyPrefix,
  accessKeyId: h.accessKeyId,
  secretSet: h.secretAccessKey !== null && h.secretAccessKey !== '',
  pathStyle: h.pathStyle,
  partSizeMib: h.partSizeMib,
  nodes: use.nodes,
  backups: use.backups,
  createdAt: h.createdAt.toISOString(),
  updatedAt: h.updatedAt.toISOString(),
});

/** What POST /backup-hosts/{id}/test found: `ok`, or S3's error. */
export class BackupHostTestDto {
  ok!: boolean;
  /** S3's error code and message, when not ok. */
  error?: string;
}
