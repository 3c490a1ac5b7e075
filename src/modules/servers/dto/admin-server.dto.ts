import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { PartialType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CursorPaginationQueryDto } from 'src/common/http/cursor';
import { Optional } from 'src/common/validation/decorators';

const ID = DECIMAL_ID;

/** The server creation body, in snake_case as Pterodactyl's clients send it (docs/api.md#conventions). */
export class CreateServerDto {
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(65_535)
  description?: string | null;

  /** The id a billing system knows the server by; unique. */
  @Optional({ nullable: true })
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  external_id?: string | null;

  /** Defaults to the administrator making the request. */
  @Optional()
  @Matches(ID, { message: 'owner_id must be a user id' })
  owner_id?: string;

  @Matches(ID, { message: 'node_id must be a node id' })
  node_id!: string;

  @IsUUID()
  egg_id!: string;

  /** MiB; 0 = unlimited. */
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  memory!: number;

  /** MiB; -1 = unlimited. */
  @Optional()
  @IsInt()
  @Min(-1)
  @Max(2_147_483_647)
  swap?: number;

  /** MiB; 0 = unlimited. */
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  disk!: number;

  /** Percent of one core; 0 = unlimited. */
  @IsInt()
  @Min(0)
  @Max(100_000)
  cpu!: number;

  @Optional()
  @IsInt()
  @Min(10)
  @Max(1000)
  io?: number;

  @Optional({ nullable: true })
  @Matches(/^\d+(-\d+)?(,\d+(-\d+)?)*$/, { message: 'threads must be a cpuset such as 0-1,3' })
  threads?: string | null;

  /** Without it, the lowest free allocation on the node is taken. */
  @Optional()
  @Matches(ID, { message: 'allocation_id must be an allocation id' })
  allocation_id?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID, { each: true, message: 'additional_allocation_ids must hold allocation ids' })
  additional_allocation_ids?: string[];

  /** Values for the egg's variables; checked against each variable's rules. */
  @Optional()
  @IsObject()
  environment?: Record<string, unknown>;

  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(65_535)
  startup?: string;

  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  docker_image?: string;

  /** 0: unlimited; -1: none (no databases may be made, as Pterodactyl's 0); otherwise at most this many. */
  @Optional()
  @IsInt()
  @Min(-1)
  @Max(1000)
  database_limit?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000)
  allocation_limit?: number;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000)
  backup_limit?: number;

  @Optional()
  @IsBoolean()
  skip_scripts?: boolean;

  @Optional()
  @IsBoolean()
  start_on_completion?: boolean;

  @Optional()
  @IsBoolean()
  oom_disabled?: boolean;
}

export class AdminServerListQueryDto extends CursorPaginationQueryDto {
  /**
   * Keeps the servers whose name, identifier, uuid, description, node name, owner's username, or an
   * allocation's address (`ip`, alias, `ip:port`) contains this text, ignoring case.
   */
  @Optional()
  @IsString()
  @MaxLength(100)
  search?: string;

  /** Keeps the servers on this node (a node's page lists them). */
  @Optional()
  @Matches(DECIMAL_ID, { message: 'nodeId must be a node id' })
  nodeId?: string;
}

export class DeleteServerQueryDto {
  /** Delete the server here even when its node cannot be reached. */
  @Optional()
  @Matches(/^(true|false|1|0)$/, { message: 'force must be true or false' })
  force?: string;
}

export class UpdateServerDetailsDto extends PartialType(PickType(CreateServerDto, ['name', 'description', 'external_id', 'owner_id'] as const), {
  skipNullProperties: false,
}) {}

/** Limits and allocations; every field optional. */
export class UpdateServerBuildDto extends PartialType(
  PickType(CreateServerDto, [
    'memory',
    'swap',
    'disk',
    'cpu',
    'io',
    'threads',
    'oom_disabled',
    'allocation_id',
    'database_limit',
    'allocation_limit',
    'backup_limit',
  ] as const),
  { skipNullProperties: false },
) {
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID, { each: true, message: 'add_allocations must hold allocation ids' })
  add_allocations?: string[];

  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID, { each: true, message: 'remove_allocations must hold allocation ids' })
  remove_allocations?: string[];
}

/** Startup command, image and variable values (only the keys given change). */
export class UpdateServerStartupDto extends PartialType(PickType(CreateServerDto, ['egg_id', 'startup', 'environment', 'skip_scripts'] as const), {
  skipNullProperties: false,
}) {
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  image?: string;
}
