import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { PartialType } from '@nestjs/swagger';
import { isIP } from 'node:net';
import { IsInt, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateBy } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const isHost = (v: unknown): boolean => typeof v === 'string' && (isIP(v) !== 0 || (HOST_NAME.test(v) && !/^[\d.]+$/.test(v)));

export class CreateDatabaseHostDto {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  /** Host name or IP address of the MySQL/MariaDB server; customers are shown it too. */
  @ValidateBy({ name: 'isDatabaseHost', validator: { validate: isHost } }, { message: 'host must be a host name or an IP address' })
  host!: string;

  @IsInt()
  @Min(1)
  @Max(65_535)
  port!: number;

  /** An account that may create databases and users and grant privileges (CREATE USER, GRANT OPTION). */
  @IsString()
  @Matches(/^[\p{L}\p{N}\p{P}\p{S}]{1,80}$/u, { message: 'username must be 1 to 80 letters, digits or symbols' })
  username!: string;

  /** Write-only: stored encrypted and never returned. May be empty for a passwordless account. */
  @IsString()
  @MaxLength(255)
  password!: string;

  /** Databases this host takes at most; null (the default) = no limit, 0 = takes no new ones. */
  @Optional({ nullable: true })
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxDatabases?: number | null;

  /** MAX_USER_CONNECTIONS for each user created here; null (the default) = the host's own limit. */
  @Optional({ nullable: true })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUserConnections?: number | null;

  /** Servers on this node get their databases here; null (the default) = a global host. */
  @Optional({ nullable: true })
  @Matches(DECIMAL_ID, { message: 'nodeId must be a node id' })
  nodeId?: string | null;
}

export class UpdateDatabaseHostDto extends PartialType(CreateDatabaseHostDto, { skipNullProperties: false }) {}

/** A database host as the admin API shows it: the password never leaves. */
export class DatabaseHostResponseDto {
  id!: string;
  name!: string;
  host!: string;
  port!: number;
  username!: string;
  maxDatabases!: number | null;
  maxUserConnections!: number | null;
  nodeId!: string | null;
  /** How many customer databases live on it. */
  databases!: number;
  createdAt!: string;
  updatedAt!: string;
}

export const toDatabaseHostResponse = (h: DatabaseHostEntity, databases: number): DatabaseHostResponseDto => ({
  id: h.id,
  name: h.name,
  host: h.host,
  port: h.port,
  username: h.username,
  maxDatabases: h.maxDatabases,
  maxUserConnections: h.maxUserConnections,
  nodeId: h.nodeId,
  databases,
  createdAt: h.createdAt.toISOString(),
  updatedAt: h.updatedAt.toISOString(),
});

/** What POST /database-hosts/{id}/test found. */
export class DatabaseHostTestDto {
  /** Whether the panel could sign in with the stored account. */
  connected!: boolean;
  /** The server's version string, when connected. */
  version?: string;
  /** Why not, when not connected. */
  error?: { code: string; message: string };
}
