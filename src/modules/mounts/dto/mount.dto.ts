import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';
import { Optional } from 'src/common/validation/decorators';
import type { MountEntity } from 'src/modules/mounts/mount.entity';
import { MAX_PATH_LENGTH } from 'src/modules/mounts/mount-paths';

export class MountListQueryDto extends PaginationQueryDto {
  /** Part of the name, source or target (case-insensitive). */
  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(191)
  search?: string;
}

export class CreateMountDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name!: string;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  /**
   * Absolute path on the node; normalised (repeated and trailing slashes dropped). Not a Wings
   * directory nor under or above one (docs/admin-mounts.md#path-rules).
   */
  @IsString()
  @MaxLength(MAX_PATH_LENGTH * 2)
  source!: string;

  /** Absolute path in the container; not /home/container nor a system directory (docs/admin-mounts.md#path-rules). */
  @IsString()
  @MaxLength(MAX_PATH_LENGTH * 2)
  target!: string;

  /** Default false. */
  @Optional()
  @IsBoolean()
  readOnly?: boolean;

  /** Pterodactyl's flag, kept and shown; default false. */
  @Optional()
  @IsBoolean()
  userMountable?: boolean;
}

export class UpdateMountDto extends PartialType(CreateMountDto, { skipNullProperties: false }) {}

export class LinkEggsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'each of eggIds must be an egg id' })
  eggIds!: string[];
}

export class LinkNodesDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @Matches(DECIMAL_ID, { each: true, message: 'each of nodeIds must be a node id' })
  nodeIds!: string[];
}

/** A mount as lists show it. */
export class MountResponseDto {
  id!: string;
  uuid!: string;
  name!: string;
  description!: string | null;
  source!: string;
  target!: string;
  readOnly!: boolean;
  userMountable!: boolean;
  createdAt!: string;
  updatedAt!: string;
}

class LinkedEggDto {
  id!: string;
  name!: string;
}

class LinkedNodeDto {
  id!: string;
  name!: string;
}

class AttachedServerDto {
  id!: string;
  uuid!: string;
  name!: string;
}

/** One mount with what it is linked and attached to. */
export class MountDetailDto extends MountResponseDto {
  eggs!: LinkedEggDto[];
  nodes!: LinkedNodeDto[];
  servers!: AttachedServerDto[];
}

export const toMountResponse = (m: MountEntity): MountResponseDto => ({
  id: m.id,
  uuid: m.uuid,
  name: m.name,
  description: m.description,
  source: m.source,
  target: m.target,
  readOnly: m.readOnly,
  userMountable: m.userMountable,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});
