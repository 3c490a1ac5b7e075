import { Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import type { HttpRequest } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ClientAccountRoute, ClientActor, ClientAuth, ClientServerRoute } from 'src/modules/pterodactyl/client/client-access';
import { CLIENT_LIST_TYPES, ClientListFilters, PterodactylClientServerListService } from 'src/modules/pterodactyl/client/client-server-list.service';
import { userPermissionsOf } from 'src/modules/pterodactyl/client/client-permissions';
import { PterodactylServerPresenter } from 'src/modules/pterodactyl/client/client-server-presenter';
import { activityItem, statsItem } from 'src/modules/pterodactyl/client/client-transformers';
import { FractalItem, FractalPage, filtersOf, includesOf, page, pageOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ClientServersService } from 'src/modules/servers/client-servers.service';
import { CurrentServer, ServerAccess } from 'src/modules/servers/server-access';
import { CommandBody, PowerBody } from 'src/modules/pterodactyl/client/dto/server.dto';

/** `/pterodactyl/api/client`: the server list and each server's own routes (ClientController, ServerController, …). */
@PterodactylController()
@Controller('pterodactyl/api/client')
export class PterodactylClientServersController {
  constructor(
    private readonly servers: ClientServersService,
    private readonly serverList: PterodactylClientServerListService,
    private readonly presenter: PterodactylServerPresenter,
    private readonly config: AppConfigService,
  ) {}

  /** `?type=owner|admin|admin-all`, `filter[uuid|name|description|external_id|*]`, `?include=egg`, pages of 50 (at most 100). */
  @Get()
  @ClientAccountRoute()
  async list(@ClientAuth() auth: AuthContext, @Query() query: Record<string, unknown>, @Req() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf(query);
    const type = CLIENT_LIST_TYPES.find((t) => t === query.type) ?? 'default';
    const filters: ClientListFilters = filtersOf(query, ['uuid', 'name', 'description', 'external_id', '*'] as const);
    const { items, total } = await this.serverList.page(auth, type, filters, at, includesOf(query, ['egg'] as const).has('egg'));
    return page(items, total, at, req, this.config.http.appUrl);
  }

  @Get('servers/:server')
  @ClientServerRoute('server.view')
  async details(
    @CurrentServer() access: ServerAccess,
    @ClientAuth() auth: AuthContext,
    @Query() query: Record<string, unknown>,
  ): Promise<FractalItem & { meta: { is_server_owner: boolean; user_permissions: string[] } }> {
    const server = await this.presenter.present(access, auth.user, includesOf(query, ['egg'] as const).has('egg'));
    return { ...server, meta: { is_server_owner: access.server.ownerId === auth.user.id, user_permissions: userPermissionsOf(access) } };
  }

  @Get('servers/:server/resources')
  @ClientServerRoute('server.view')
  async resources(@CurrentServer() access: ServerAccess): Promise<FractalItem> {
    return statsItem(await this.servers.resources(access));
  }

  /** A console token for the node's daemon and its socket URL (Hatchery's console token, Pterodactyl's `data` shape). */
  @Get('servers/:server/websocket')
  @ClientServerRoute('websocket.connect')
  async websocket(@CurrentServer() access: ServerAccess, @ClientAuth() auth: AuthContext): Promise<{ data: { token: string; socket: string } }> {
    const credentials = await this.servers.websocket(access, auth);
    if ('unavailable' in credentials) {
      throw new AppException({ code: 'PTERODACTYL_DAEMON_UNAVAILABLE', category: ErrorCategory.UNAVAILABLE, message: credentials.message });
    }
    return { data: { token: credentials.token, socket: credentials.socket } };
  }

  @Post('servers/:server/power')
  @HttpCode(204)
  @ClientServerRoute('server.power')
  async power(@CurrentServer() access: ServerAccess, @PterodactylBody(PowerBody) body: PowerBody, @ClientActor() actor: Actor): Promise<void> {
    await this.servers.power(access, body.signal, actor);
  }

  @Post('servers/:server/command')
  @HttpCode(204)
  @ClientServerRoute('server.console')
  async command(@CurrentServer() access: ServerAccess, @PterodactylBody(CommandBody) body: CommandBody, @ClientActor() actor: Actor): Promise<void> {
    await this.servers.command(access, body.command, actor);
  }

  /** Pages of 25 (at most 100), newest first; subusers see no addresses (Hatchery's rule). */
  @Get('servers/:server/activity')
  @ClientServerRoute('server.activity.read')
  async activity(@CurrentServer() access: ServerAccess, @Query() query: Record<string, unknown>, @Req() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf({ per_page: '25', ...query });
    const { data, meta } = await this.servers.activityPage(access, { page: at.page, perPage: at.perPage, skip: at.skip });
    return page(data.map(activityItem), meta.pagination.total, at, req, this.config.http.appUrl);
  }
}
