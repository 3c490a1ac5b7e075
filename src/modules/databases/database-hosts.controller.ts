import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { DatabaseHostsService } from 'src/modules/databases/database-hosts.service';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import {
  CreateDatabaseHostDto,
  DatabaseHostResponseDto,
  DatabaseHostTestDto,
  UpdateDatabaseHostDto,
} from 'src/modules/databases/dto/database-host.dto';

const hostId = new DecimalIdPipe(DatabaseError.HOST_NOT_FOUND);

/** The MySQL/MariaDB hosts customer databases are made on (scope servers.*). */
@ApiTags('admin: database hosts')
@Controller('api/admin/database-hosts')
export class DatabaseHostsController {
  constructor(private readonly service: DatabaseHostsService) {}

  @Get()
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_READ })
  @ApiPage(DatabaseHostResponseDto)
  list(@Query() query: PaginationQueryDto): Promise<Paginated<DatabaseHostResponseDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_WRITE })
  @ApiData(DatabaseHostResponseDto, { status: 201 })
  async create(@Body() dto: CreateDatabaseHostDto, @CurrentActor() actor: Actor): Promise<{ data: DatabaseHostResponseDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_READ })
  @ApiData(DatabaseHostResponseDto)
  async get(@Param('id', hostId) id: string): Promise<{ data: DatabaseHostResponseDto }> {
    return { data: await this.service.get(id) };
  }

  /** Any field; `password` replaces the stored one. */
  @Patch(':id')
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_WRITE })
  @ApiData(DatabaseHostResponseDto)
  async update(@Param('id', hostId) id: string, @Body() dto: UpdateDatabaseHostDto, @CurrentActor() actor: Actor): Promise<{ data: DatabaseHostResponseDto }> {
    return { data: await this.service.update(id, dto, actor) };
  }

  /** 409 while databases live on the host. */
  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_WRITE })
  async delete(@Param('id', hostId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, actor);
  }

  /** Signs in with the stored account: `connected` and the server version, or the error. */
  @Post(':id/test')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.DATABASE_HOSTS_WRITE })
  @ApiData(DatabaseHostTestDto)
  async test(@Param('id', hostId) id: string): Promise<{ data: DatabaseHostTestDto }> {
    return { data: await this.service.test(id) };
  }
}
