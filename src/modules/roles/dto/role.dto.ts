import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ADMIN_AREAS, type AdminAccess, type AdminArea } from 'src/common/auth/admin-scope';
import { Optional } from 'src/common/validation/decorators';
import type { AdminRoleEntity } from 'src/modules/roles/admin-role.entity';

const ACCESS: readonly AdminAccess[] = ['read', 'write'];

class RolePermissionDto {
  @ApiProperty({ enum: ADMIN_AREAS })
  @IsIn(ADMIN_AREAS, { message: `area must be one of: ${ADMIN_AREAS.join(', ')}` })
  area!: AdminArea;

  /** `write` includes read. */
  @ApiProperty({ enum: ACCESS })
  @IsIn(ACCESS, { message: 'access must be read or write' })
  access!: AdminAccess;
}

export class CreateRoleDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name!: string;

  @IsArray()
  @ArrayMaxSize(ADMIN_AREAS.length)
  @ValidateNested({ each: true })
  @Type(() => RolePermissionDto)
  permissions!: RolePermissionDto[];

  /** Limits the role to these nodes' servers and allocations; empty or left out: every node. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(/^[1-9]\d{0,18}$/, { each: true, message: 'each of nodeIds must be a node id' })
  nodeIds?: string[];
}

export class UpdateRoleDto extends PartialType(CreateRoleDto, { skipNullProperties: false }) {}

export class RoleDto {
  id!: string;
  name!: string;
  permissions!: RolePermissionDto[];
  /** The nodes the role is limited to; empty when `allNodes`. */
  nodeIds!: string[];
  /** The role reaches every node (it was given no nodes). A limited role whose nodes were all deleted reaches none. */
  allNodes!: boolean;
  /** How many users hold it. */
  users!: number;
  createdAt!: string;
  updatedAt!: string;
}

export const toRoleDto = (role: AdminRoleEntity, users: number): RoleDto => ({
  id: role.id,
  name: role.name,
  permissions: role.permissions.map(({ area, access }) => ({ area, access })),
  nodeIds: role.allNodes ? [] : role.nodeIds.map(String),
  allNodes: role.allNodes,
  users,
  createdAt: role.createdAt.toISOString(),
  updatedAt: role.updatedAt.toISOString(),
});
