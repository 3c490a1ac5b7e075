import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { PaginationQueryDto, Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { CreateServerDto, DeleteServerQueryDto } from 'src/modules/servers/dto/admin-server.dto';
import { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import { ServerError } from 'src/modules/servers/servers.errors';

const serverId = new DecimalIdPipe(ServerError.NOT_FOUND);

@ApiTags('admin: servers')
@Controller('api/admin/servers')
export class AdminServersController {
  constructor(private readonly service: AdminServersService) {}

  @Get()
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  list(@Query() query: PaginationQueryDto): Promise<Paginated<AdminServerDto>> {
    return this.service.list(toPage(query));
  }

  @Post()
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  async create(@Body() dto: CreateServerDto, @CurrentActor() actor: Actor): Promise<{ data: AdminServerDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  async get(@Param('id', serverId) id: string): Promise<{ data: AdminServerDto }> {
    return { data: await this.service.get(id) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  async delete(@Param('id', serverId) id: string, @Query() query: DeleteServerQueryDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, query.force === 'true' || query.force === '1', actor);
  }
}
