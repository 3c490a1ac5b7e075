import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ServerNodeScoped } from 'src/modules/servers/admin-server-scope';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDataWithMeta, ApiPage } from 'src/common/http/api-responses';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Authenticated, NodeScoped } from 'src/common/auth/authenticated.decorator';
import { AdminNodes } from 'src/common/auth/current-auth.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CursorPaginated, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { AdminServerChangesService, SyncOutcome } from 'src/modules/servers/admin-server-changes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import {
  AdminServerListQueryDto,
  CreateServerDto,
  DeleteServerQueryDto,
  UpdateServerBuildDto,
  UpdateServerDetailsDto,
  UpdateServerStartupDto,
} from 'src/modules/servers/dto/admin-server.dto';
import { AdminServerDto, AdminStartupDto, NodeUsageDto, SyncOutcomeDto } from 'src/modules/servers/dto/server-response.dto';
import { ServerError } from 'src/modules/servers/servers.errors';

const serverId = new DecimalIdPipe(ServerError.NOT_FOUND);

type Synced = { data: AdminServerDto; meta: SyncOutcomeDto };
const synced = ({ server, ...meta }: { server: AdminServerDto } & SyncOutcome): Synced => ({ data: server, meta });

@ApiTags('admin: servers')
@Controller('api/admin/servers')
export class AdminServersController {
  constructor(
    private readonly service: AdminServersService,
    private readonly changes: AdminServerChangesService,
  ) {}

  /** A role limited to some nodes lists only their servers. */
  @Get()
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @NodeScoped()
  @ApiPage(AdminServerDto, { cursor: true })
  list(@Query() query: AdminServerListQueryDto, @AdminNodes() only: ReadonlySet<string> | null): Promise<Paginated<AdminServerDto> | CursorPaginated<AdminServerDto>> {
    const where = { ...(query.nodeId === undefined ? {} : { nodeId: query.nodeId }), ...(only === null ? {} : { nodeIds: [...only] }) };
    const cursor = toCursorPage(query, 'servers', ['id']);
    return cursor ? this.service.listByCursor(cursor, query.search, where) : this.service.list(toPage(query), query.search, where);
  }

  /** Per node with servers: how many, and the memory and disk their limits take of it. */
  @Get('node-usage')
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ApiData(NodeUsageDto, { isArray: true })
  async nodeUsage(): Promise<{ data: NodeUsageDto[] }> {
    return { data: await this.service.usageByNode() };
  }

  @Post()
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ApiData(AdminServerDto, { status: 201 })
  async create(@Body() dto: CreateServerDto, @CurrentActor() actor: Actor): Promise<{ data: AdminServerDto }> {
    return { data: await this.service.create(dto, actor) };
  }

  /** The server a billing system knows by this id. */
  @Get('external/:externalId')
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ApiData(AdminServerDto)
  async getByExternalId(@Param('externalId') externalId: string): Promise<{ data: AdminServerDto }> {
    return { data: await this.service.getByExternalId(externalId) };
  }

  @Get(':id')
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ServerNodeScoped()
  @ApiData(AdminServerDto)
  async get(@Param('id', serverId) id: string): Promise<{ data: AdminServerDto }> {
    return { data: await this.service.get(id) };
  }

  @Patch(':id')
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerDto, SyncOutcomeDto)
  async updateDetails(@Param('id', serverId) id: string, @Body() dto: UpdateServerDetailsDto, @CurrentActor() actor: Actor): Promise<Synced> {
    return synced(await this.changes.updateDetails(id, dto, actor));
  }

  /** Limits and allocations; the daemon is told with /sync. */
  @Patch(':id/build')
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerDto, SyncOutcomeDto)
  async updateBuild(@Param('id', serverId) id: string, @Body() dto: UpdateServerBuildDto, @CurrentActor() actor: Actor): Promise<Synced> {
    return synced(await this.changes.updateBuild(id, dto, actor));
  }

  @Get(':id/startup')
  @Authenticated({ admin: AdminScope.SERVERS_READ })
  @ServerNodeScoped()
  @ApiData(AdminStartupDto)
  async startup(@Param('id', serverId) id: string): Promise<{ data: AdminStartupDto }> {
    return { data: await this.service.startup(id) };
  }

  @Patch(':id/startup')
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerDto, SyncOutcomeDto)
  async updateStartup(@Param('id', serverId) id: string, @Body() dto: UpdateServerStartupDto, @CurrentActor() actor: Actor): Promise<Synced> {
    return synced(await this.changes.updateStartup(id, dto, actor));
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerDto, SyncOutcomeDto)
  async suspend(@Param('id', serverId) id: string, @CurrentActor() actor: Actor): Promise<Synced> {
    return synced(await this.changes.setSuspended(id, true, actor));
  }

  @Post(':id/unsuspend')
  @HttpCode(200)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiDataWithMeta(AdminServerDto, SyncOutcomeDto)
  async unsuspend(@Param('id', serverId) id: string, @CurrentActor() actor: Actor): Promise<Synced> {
    return synced(await this.changes.setSuspended(id, false, actor));
  }

  @Post(':id/reinstall')
  @HttpCode(202)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  @ApiData(AdminServerDto, { status: 202 })
  async reinstall(@Param('id', serverId) id: string, @CurrentActor() actor: Actor): Promise<{ data: AdminServerDto }> {
    return { data: await this.changes.reinstall(id, actor) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ admin: AdminScope.SERVERS_WRITE })
  @ServerNodeScoped()
  async delete(@Param('id', serverId) id: string, @Query() query: DeleteServerQueryDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.delete(id, query.force === 'true' || query.force === '1', actor);
  }
}
