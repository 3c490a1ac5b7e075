import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData, ApiPage } from 'src/common/http/api-responses';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Authenticated } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { CursorPaginated, toCursorPage } from 'src/common/http/cursor';
import { Paginated, toPage } from 'src/common/http/pagination';
import { ClientServersService, WebsocketCredentials } from 'src/modules/servers/client-servers.service';
import { ClientServerListQueryDto, CommandDto, PowerDto, ServerActivityQueryDto } from 'src/modules/servers/dto/client-server.dto';
import {
  ClientServerDetailsDto,
  PowerResultDto,
  ServerActivityDto,
  ServerDetailsDto,
  WebsocketTokenDto,
  WebsocketUnavailableDto,
} from 'src/modules/servers/dto/server-response.dto';
import { ServerResourcesDto } from 'src/modules/servers/dto/server-resources.dto';
import { CurrentServer, ServerAccess, ServerRoute } from 'src/modules/servers/server-access';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';

@ApiTags('client: servers')
@Controller('api/client')
export class ClientServersController {
  constructor(private readonly service: ClientServersService) {}

  @Get('servers')
  @Authenticated()
  @ApiPage(ServerDetailsDto)
  list(@CurrentAuth() auth: AuthContext, @Query() query: ClientServerListQueryDto): Promise<Paginated<ServerDetailsDto>> {
    return this.service.list(auth, query.type, toPage(query), query.search);
  }

  /** The server permission catalogue (docs/permissions.md). */
  @Get('permissions')
  @Authenticated()
  @ApiData({ type: 'string' }, { isArray: true })
  permissions(): { data: string[] } {
    return { data: [...ALL_SERVER_PERMISSIONS] };
  }

  @Get('servers/:server')
  @ServerRoute('server.view')
  @ApiData(ClientServerDetailsDto)
  async details(@CurrentServer() access: ServerAccess, @CurrentAuth() auth: AuthContext): Promise<{ data: ClientServerDetailsDto }> {
    return { data: await this.service.details(access, auth) };
  }

  @Post('servers/:server/power')
  @HttpCode(200)
  @ServerRoute('server.power')
  @ApiData(PowerResultDto)
  async power(@CurrentServer() access: ServerAccess, @Body() dto: PowerDto, @CurrentActor() actor: Actor): Promise<{ data: PowerResultDto }> {
    return { data: await this.service.power(access, dto.action, actor) };
  }

  @Post('servers/:server/command')
  @HttpCode(204)
  @ServerRoute('server.console')
  async command(@CurrentServer() access: ServerAccess, @Body() dto: CommandDto, @CurrentActor() actor: Actor): Promise<void> {
    await this.service.command(access, dto.command, actor);
  }

  @Get('servers/:server/resources')
  @ServerRoute('server.view')
  @ApiData(ServerResourcesDto)
  async resources(@CurrentServer() access: ServerAccess): Promise<{ data: ServerResourcesDto }> {
    return { data: await this.service.resources(access) };
  }

  @Get('servers/:server/websocket')
  @ServerRoute('websocket.connect')
  @ApiData([WebsocketTokenDto, WebsocketUnavailableDto])
  async websocket(@CurrentServer() access: ServerAccess, @CurrentAuth() auth: AuthContext): Promise<{ data: WebsocketCredentials }> {
    return { data: await this.service.websocket(access, auth) };
  }

  @Get('servers/:server/activity')
  @ServerRoute('server.activity.read')
  @ApiPage(ServerActivityDto, { cursor: true })
  activity(@CurrentServer() access: ServerAccess, @Query() query: ServerActivityQueryDto): Promise<Paginated<ServerActivityDto> | CursorPaginated<ServerActivityDto>> {
    const cursor = toCursorPage(query, 'server-activity', ['timestamp', 'id']);
    return cursor ? this.service.activityCursorPage(access, cursor, query.event) : this.service.activityPage(access, toPage(query), query.event);
  }
}
