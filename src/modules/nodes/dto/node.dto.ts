import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { PartialType } from '@nestjs/swagger';
import { isIPv4 } from 'node:net';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateBy } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { DAEMON_AUTH_MODES, DaemonAuthMode, NODE_SCHEMES, NodeEntity, NodeScheme } from 'src/modules/nodes/node.entity';

const HOST = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\d{1,3}(?:\.\d{1,3}){3}$/;

export class CreateNodeDto {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;

  @Optional({ nullable: true })
  @Matches(DECIMAL_ID, { message: 'locationId must be a location id' })
  locationId?: string | null;

  /** Where the node's backups go (a backup host's id); null (the default) keeps them on the node. */
  @Optional({ nullable: true })
  @Matches(DECIMAL_ID, { message: 'backupHostId must be a backup host id' })
  backupHostId?: string | null;

  /** Host name (or IPv4 address) the daemon is reached at. */
  @IsString()
  @Matches(HOST, { message: 'fqdn must be a host name or an IPv4 address' })
  @ValidateBy({
    name: 'isDottedQuadWhenNumeric',
    validator: { validate: (v: unknown) => typeof v !== 'string' || !/^[\d.]+$/.test(v) || isIPv4(v) },
  }, { message: 'fqdn must be a host name or an IPv4 address' })
  fqdn!: string;

  @Optional()
  @IsIn(NODE_SCHEMES)
  scheme?: NodeScheme;

  @Optional()
  @IsBoolean()
  public?: boolean;

  @Optional()
  @IsBoolean()
  maintenanceMode?: boolean;

  @Optional()
  @IsBoolean()
  allowInsecure?: boolean;

  @Optional()
  @IsBoolean()
  behindProxy?: boolean;

  /** MiB. */
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  memory!: number;

  /** Percent above `memory` servers may be given; -1 turns the check off. */
  @Optional()
  @IsInt()
  @Min(-1)
  @Max(10_000)
  memoryOverallocate?: number;

  /** MiB. */
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  disk!: number;

  @Optional()
  @IsInt()
  @Min(-1)
  @Max(10_000)
  diskOverallocate?: number;

  /** MiB per uploaded file. */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1_048_576)
  uploadSize?: number;

  @Optional()
  @IsString()
  @Matches(/^\/[^\0]{0,254}$/, { message: 'daemonBase must be an absolute path' })
  daemonBase?: string;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(65_535)
  daemonListen?: number;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(65_535)
  daemonSftp?: number;

  /** `token`: `Bearer <token>` as Wings expects; `combined`: `Bearer <tokenIdentifier>.<token>`. */
  @Optional()
  @IsIn(DAEMON_AUTH_MODES)
  daemonAuth?: DaemonAuthMode;
}

export class UpdateNodeDto extends PartialType(CreateNodeDto, { skipNullProperties: false }) {}

/** A node as the admin API shows it: the daemon token never leaves through here (see the configuration endpoint). */
export class NodeResponseDto {
  id!: string;
  uuid!: string;
  name!: string;
  description!: string | null;
  locationId!: string | null;
  /** Where the node's backups go; null: on the node itself. */
  backupHostId!: string | null;
  baseUrl!: string;
  fqdn!: string;
  scheme!: NodeScheme;
  public!: boolean;
  maintenanceMode!: boolean;
  allowInsecure!: boolean;
  behindProxy!: boolean;
  memory!: number;
  memoryOverallocate!: number;
  disk!: number;
  diskOverallocate!: number;
  uploadSize!: number;
  daemonBase!: string;
  daemonListen!: number;
  daemonSftp!: number;
  daemonAuth!: DaemonAuthMode;
  tokenIdentifier!: string;
  lastSeenAt!: string | null;
  /**
   * When the panel first heard from the node's daemon: its first authenticated call to /api/remote, or its
   * first answer to the panel. Null means Wings has not been started with this node's configuration yet.
   */
  daemonContactedAt!: string | null;
  createdAt!: string;
  updatedAt!: string;
}

export const toNodeResponse = (n: NodeEntity): NodeResponseDto => ({
  id: n.id,
  uuid: n.uuid,
  name: n.name,
  description: n.description,
  locationId: n.locationId,
  backupHostId: n.backupHostId ?? null,
  baseUrl: n.baseUrl,
  fqdn: n.fqdn,
  scheme: n.scheme,
  public: n.public,
  maintenanceMode: n.maintenanceMode,
  allowInsecure: n.allowInsecure,
  behindProxy: n.behindProxy,
  memory: n.memory,
  memoryOverallocate: n.memoryOverallocate,
  disk: n.disk,
  diskOverallocate: n.diskOverallocate,
  uploadSize: n.uploadSize,
  daemonBase: n.daemonBase,
  daemonListen: n.daemonListen,
  daemonSftp: n.daemonSftp,
  daemonAuth: n.daemonAuth,
  tokenIdentifier: n.tokenIdentifier,
  lastSeenAt: n.lastSeenAt?.toISOString() ?? null,
  daemonContactedAt: n.daemonContactedAt?.toISOString() ?? null,
  createdAt: n.createdAt.toISOString(),
  updatedAt: n.updatedAt.toISOString(),
});

/** The node daemon's own system information, as Wings answers `GET /api/system`. */
export class DaemonSystemInfoDto {
  architecture!: string;
  cpu_count!: number;
  kernel_version!: string;
  os!: string;
  version!: string;
}

/** Whether the node took the configuration push; the change itself is saved either way. */
export class PushOutcomeDto {
  configurationPushed!: boolean;
  /** Why the push failed, when it did. */
  pushError?: string;
}
