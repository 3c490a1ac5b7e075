import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CursorPaginated, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';
import { UpdateUserDto } from 'src/modules/users/dto/update-user.dto';
import { UserListQueryDto } from 'src/modules/users/dto/user-list-query.dto';
import { AdminUserResponseDto, toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

const userId = new DecimalIdPipe(UserError.NOT_FOUND);

@ApiTags('admin: users')
@Controller('api/admin/users')
export class UsersController {
  constructor(private readonly service: UsersService) {}

  @Get()
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiPage(AdminUserResponseDto, { cursor: true })
  list(@Query() query: UserListQueryDto): Promise<Paginated<AdminUserResponseDto> | CursorPaginated<AdminUserResponseDto>> {
    const cursor = toCursorPage(query, 'users', ['id']);
    return cursor ? this.service.listByCursor(cursor, query.search) : this.service.list(toPage(query), query.search);
  }

  @Post()
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto, { status: 201 })
  async create(@Body() dto: CreateUserDto, @CurrentActor() actor: Actor): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.create(dto, actor)) };
  }

  /** The user an outside system (billing) knows by this id. */
  @Get('external/:externalId')
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiData(AdminUserResponseDto)
  async getByExternalId(@Param('externalId') externalId: string): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.getByExternalId(externalId)) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiData(AdminUserResponseDto)
  async get(@Param('id', userId) id: string): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.get(id)) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto)
  async update(@Param('id', userId) id: string, @Body() dto: UpdateUserDto, @CurrentActor() actor: Actor): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.update(id, dto, actor)) };
  }

  /** Nobody can sign in to the account (password, API key, SFTP) until it is unsuspended; its sessions end now. */
  @Post(':id/suspend')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto)
  async suspend(@Param('id', userId) id: string, @CurrentActor() actor: Actor): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.setSuspended(id, true, actor)) };
  }

  @Post(':id/unsuspend')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto)
  async unsuspend(@Param('id', userId) id: string, @CurrentActor() actor: Actor): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.setSuspended(id, false, actor)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  async delete(@Param('id', userId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }
}
