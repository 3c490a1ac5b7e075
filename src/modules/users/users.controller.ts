import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import type { AuthContext } from 'src/modules/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/modules/auth/current-auth.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { CreateUserDto } from 'src/modules/users/dto/create-user.dto';
import { UpdateUserDto } from 'src/modules/users/dto/update-user.dto';
import { AdminUserResponseDto, toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

@ApiTags('admin: users')
@Controller('api/admin/users')
export class UsersController {
  constructor(private readonly service: UsersService) {}

  @Get()
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiPage(AdminUserResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<AdminUserResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto, { status: 201 })
  async create(@Body() dto: CreateUserDto): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.create(dto)) };
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
  async get(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.get(id)) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(AdminUserResponseDto)
  async update(
    @Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string,
    @Body() dto: UpdateUserDto,
  ): Promise<{ data: AdminUserResponseDto }> {
    return { data: toAdminUserResponse(await this.service.update(id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  async delete(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string, @CurrentAuth() auth: AuthContext): Promise<void> {
    await this.service.delete(id, auth.user);
  }
}
