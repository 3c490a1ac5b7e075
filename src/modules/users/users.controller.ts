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
import { toUserResponse, UserResponseDto } from 'src/modules/users/dto/user-response.dto';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

@ApiTags('admin: users')
@Controller('api/admin/users')
export class UsersController {
  constructor(private readonly service: UsersService) {}

  @Get()
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiPage(UserResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<UserResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(UserResponseDto, { status: 201 })
  async create(@Body() dto: CreateUserDto): Promise<{ data: UserResponseDto }> {
    return { data: toUserResponse(await this.service.create(dto)) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.USERS_READ })
  @ApiData(UserResponseDto)
  async get(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string): Promise<{ data: UserResponseDto }> {
    return { data: toUserResponse(await this.service.get(id)) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  @ApiData(UserResponseDto)
  async update(
    @Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string,
    @Body() dto: UpdateUserDto,
  ): Promise<{ data: UserResponseDto }> {
    return { data: toUserResponse(await this.service.update(id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.USERS_WRITE })
  async delete(@Param('id', new DecimalIdPipe(UserError.NOT_FOUND)) id: string, @CurrentAuth() auth: AuthContext): Promise<void> {
    await this.service.delete(id, auth.user);
  }
}
