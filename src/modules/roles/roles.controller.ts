import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { ApiData } from 'src/common/http/api-responses';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreateRoleDto, RoleDto, UpdateRoleDto } from 'src/modules/roles/dto/role.dto';
import { RoleError } from 'src/modules/roles/roles.errors';
import { RolesService } from 'src/modules/roles/roles.service';

const roleId = new DecimalIdPipe(RoleError.NOT_FOUND);

/**
 * Administrator roles (docs/permissions.md#administrator-roles). Only full administrators manage them
 * (and who holds them: `PATCH /api/admin/users/{id}` `{roleIds}`): a role holder could otherwise grant
 * itself more.
 */
@ApiTags('admin: roles')
@Controller('api/admin/roles')
export class RolesController {
  constructor(private readonly service: RolesService) {}

  /** Every role (there are few), by name. */
  @Get()
  @Authenticated({ fullAdmin: true })
  @ApiData(RoleDto, { isArray: true })
  async list(): Promise<{ data: RoleDto[] }> {
    return { data: await this.service.list() };
  }

  @Post()
  @Authenticated({ fullAdmin: true })
  @ApiData(RoleDto, { status: 201 })
  async create(@Body() dto: CreateRoleDto, @CurrentActor() actor: Actor): Promise<{ data: RoleDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  @Get(':id')
  @Authenticated({ fullAdmin: true })
  @ApiData(RoleDto)
  async get(@Param('id', roleId) id: string): Promise<{ data: RoleDto }> {
    return { data: await this.service.get(id) };
  }

  @Patch(':id')
  @Authenticated({ fullAdmin: true })
  @ApiData(RoleDto)
  async update(@Param('id', roleId) id: string, @Body() dto: UpdateRoleDto, @CurrentActor() actor: Actor): Promise<{ data: RoleDto }> {
    return { data: await this.service.update(id, dto, actor) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ fullAdmin: true })
  async delete(@Param('id', roleId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }
}
