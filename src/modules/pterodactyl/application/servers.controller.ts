import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { AdminNodes } from 'src/common/auth/current-auth.decorator';
import { AppConfigService } from 'src/config/app-config.service';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ApplicationServersService } from 'src/modules/pterodactyl/application/servers.service';
import { ApplicationServerViews, SERVER_INCLUDES } from 'src/modules/pterodactyl/application/server-views';
import type { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { AdminServerChangesService } from 'src/modules/servers/admin-server-changes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import { filtersOf, FractalItem, FractalPage, includesOf, page, pageOf, sortOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { BuildBody, DetailsBody, StartupBody, StoreServerBody } from 'src/modules/pterodactyl/application/dto/server.dto';

const serverId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

type QueryParams = Record<string, unknown>;

/** Pterodactyl's application servers (routes/api-application.php, /servers). */
@PterodactylController()
@Controller(applicationPaths('servers'))
export class ApplicationServersController {
  constructor(
    private readonly servers: AdminServersService,
    private readonly changes: AdminServerChangesService,
    private readonly pterodactylServers: ApplicationServersService,
    private readonly config: AppConfigService,
    private readonly serverViews: ApplicationServerViews,
  ) {}

  @Get()
  @ApplicationRoute('servers', 'read', 'list')
  async list(
    @Query() query: QueryParams,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylRequestOf() req: HttpRequest,
    @AdminNodes() only: ReadonlySet<string> | null,
  ): Promise<FractalPage> {
    const at = pageOf(query);
    const { uuidShort: identifier, external_id: externalId, ...filters } = filtersOf(query, ['uuid', 'uuidShort', 'name', 'description', 'image', 'external_id'] as const);
    const list = { filters: { ...filters, identifier, externalId }, sort: sortOf(query, ['id', 'uuid'] as const) };
    const { data, meta } = await this.servers.list(at, undefined, only === null ? {} : { nodeIds: [...only] }, list);
    return page(await this.serverViews.views(data, includesOf(query, SERVER_INCLUDES), key), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  @Get('external/:externalId')
  @ApplicationRoute('servers', 'read')
  async external(@Param('externalId') externalId: string, @Query() query: QueryParams, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([await this.servers.getByExternalId(externalId)], includesOf(query, SERVER_INCLUDES), key))[0];
  }

  @Get(':id')
  @ApplicationRoute('servers', 'read', 'server')
  async get(@Param('id', serverId) id: string, @Query() query: QueryParams, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([await this.servers.get(id)], includesOf(query, SERVER_INCLUDES), key))[0];
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('servers', 'write')
  async create(
    @PterodactylBody(StoreServerBody) body: StoreServerBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.view(await this.pterodactylServers.create(body, actor), query, key);
  }

  @Patch(':id/details')
  @ApplicationRoute('servers', 'write', 'server')
  async details(
    @Param('id', serverId) id: string,
    @PterodactylBody(DetailsBody) body: DetailsBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.view(await this.pterodactylServers.updateDetails(id, body, actor), query, key);
  }

  @Patch(':id/build')
  @ApplicationRoute('servers', 'write', 'server')
  async build(
    @Param('id', serverId) id: string,
    @PterodactylBody(BuildBody) body: BuildBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.view(await this.pterodactylServers.updateBuild(id, body, actor), query, key);
  }

  @Patch(':id/startup')
  @ApplicationRoute('servers', 'write', 'server')
  async startup(
    @Param('id', serverId) id: string,
    @PterodactylBody(StartupBody) body: StartupBody,
    @Query() query: QueryParams,
    @PterodactylActor() actor: Actor,
    @PterodactylCaller() key: ResolvedPterodactylKey,
  ): Promise<FractalItem> {
    return this.view(await this.pterodactylServers.updateStartup(id, body, actor), query, key);
  }

  @Post(':id/suspend')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write', 'server')
  async suspend(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.setSuspended(id, true, actor);
  }

  @Post(':id/unsuspend')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write', 'server')
  async unsuspend(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.setSuspended(id, false, actor);
  }

  @Post(':id/reinstall')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write', 'server')
  async reinstall(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.changes.reinstall(id, actor);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write', 'server')
  async delete(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.servers.delete(id, false, actor);
  }

  /** `DELETE /servers/{id}/force`: deleted here even when its node cannot be reached. */
  @Delete(':id/force')
  @HttpCode(204)
  @ApplicationRoute('servers', 'write', 'server')
  async forceDelete(@Param('id', serverId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.servers.delete(id, true, actor);
  }

  /** A changed or created server as the routes that read it show it, with the `?include=` asked for. */
  private async view(server: AdminServerDto, query: QueryParams, key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.serverViews.views([server], includesOf(query, SERVER_INCLUDES), key))[0];
  }
}
