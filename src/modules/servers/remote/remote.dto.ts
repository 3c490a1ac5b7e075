import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsIP,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Optional, QueryInt } from 'src/common/validation/decorators';

export class RemoteServerListQueryDto {
  /** Wings starts at page=0, which means page 1. */
  @Optional()
  @QueryInt({ min: 0, max: 1_000_000 })
  page?: number;

  /** Any integer: Wings aborts its boot on a 4xx, so the service brings it into range instead (bootPageSize). */
  @Optional()
  @QueryInt({})
  per_page?: number;
}

export class InstallStatusDto {
  @IsBoolean()
  successful!: boolean;

  @Optional()
  @IsBoolean()
  reinstall?: boolean;
}

export class ActivityItemDto {
  @Optional({ nullable: true })
  @IsUUID()
  user?: string | null;

  @IsUUID()
  server!: string;

  @IsString()
  @MaxLength(64)
  event!: string;

  // Present but nullable; IsOptional would skip IsDefined for a missing key.
  @ValidateIf((_obj, value) => value !== null)
  @IsDefined()
  @IsObject()
  metadata!: Record<string, unknown> | null;

  @Optional({ nullable: true })
  @IsIP()
  ip?: string | null;

  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}T/, { message: 'timestamp must be an RFC 3339 time' })
  // A time that does not parse would be an Invalid Date, and a 500 at insert.
  @ValidateBy(
    { name: 'isParsableTime', validator: { validate: (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) } },
    { message: 'timestamp must be an RFC 3339 time' },
  )
  timestamp!: string;
}

/** Wings sends up to its `activity_send_count` per batch and resends a refused one forever: no count cap, the JSON body limit bounds it. */
export class ActivityBatchDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ActivityItemDto)
  data!: ActivityItemDto[];
}

/** Wings' SFTP login check; `session_id` and `client_version` are Go []byte, so base64. */
export class SftpAuthDto {
  @IsIn(['password', 'public_key'])
  type!: 'password' | 'public_key';

  @IsString()
  @MaxLength(255)
  username!: string;

  /** The account password, or the client's public key as an authorized_keys line. */
  @IsString()
  @MaxLength(16_384)
  password!: string;

  /** The SFTP client's `host:port`. */
  @Optional()
  @IsString()
  @MaxLength(64)
  ip?: string;

  @Optional()
  @IsString()
  @MaxLength(1024)
  session_id?: string;

  @Optional()
  @IsString()
  @MaxLength(1024)
  client_version?: string;
}

/** What Wings is told about an SFTP sign-in (docs/wings.md#sftp). */
export class SftpAuthAnswerDto {
  /** The server's uuid. */
  server!: string;
  /** The user's uuid: Wings files the session's activity under it. */
  user!: string;
  permissions!: string[];
}

/** The egg's install script, as Wings runs it. */
export class InstallScriptDto {
  container_image!: string;
  entrypoint!: string;
  script!: string;
}
