import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { AdminNodes } from 'src/common/auth/current-auth.decorator';
import { AppConfigService } from 'src/config/app-config.service';
import { AppException } from 'src/common/errors/app.exception';
import { HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { DaemonConfiguration } from 'src/modules/nodes/daemon-configuration';
import { toNodeResponse } from 'src/modules/nodes/dto/node.dto';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { filtersOf, FractalItem, FractalPage, includesOf, page, pageOf, sortOf } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { applicationPaths, ApplicationRoute, PterodactylActor, PterodactylCaller, PterodactylController, PterodactylRequestOf } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { ApplicationNodesService, NODE_INCLUDES } from 'src/modules/pterodactyl/application/nodes.service';
import { deployableQueryOf } from 'src/modules/pterodactyl/application/dto/deployable-nodes.dto';
import { StoreNodeBody, UpdateNodeBody } from 'src/modules/pterodactyl/application/dto/node.dto';

const nodeId = new DecimalIdPipe(PterodactylError.NOT_FOUND);

/** Pterodactyl's application nodes (routes/api-application.php, /nodes). */
@PterodactylController()
@Controller(applicationPaths('nodes'))
export class ApplicationNodesController {
  constructor(
    private readonly nodes: NodesService,
    private readonly nodeViews: ApplicationNodesService,
    private readonly config: AppConfigService,
    private readonly roles: AdminRoles,
  ) {}

  @Get()
  @ApplicationRoute('nodes', 'read', 'list')
  async list(
    @Query() query: Record<string, unknown>,
    @PterodactylCaller() key: ResolvedPterodactylKey,
    @PterodactylRequestOf() req: HttpRequest,
    @AdminNodes() only: ReadonlySet<string> | null,
  ): Promise<FractalPage> {
    const at = pageOf(query);
    const { daemon_token_id: tokenIdentifier, ...filters } = filtersOf(query, ['uuid', 'name', 'fqdn', 'daemon_token_id'] as const);
    const { data, meta } = await this.nodes.list(at, { filters: { ...filters, tokenIdentifier }, sort: sortOf(query, ['id', 'uuid', 'memory', 'disk'] as const) }, only);
    return page(await this.nodeViews.views(data, includesOf(query, NODE_INCLUDES), key), meta.pagination.total, at, req, this.config.http.appUrl);
  }

  /** Nodes with room for `memory` and `disk` more MiB (FindViableNodesService), optionally in `location_ids`. */
  @Get('deployable')
  @ApplicationRoute('nodes', 'read')
  async deployable(@Query() rawQuery: Record<string, unknown>, @PterodactylRequestOf() req: HttpRequest): Promise<FractalPage> {
    const asked = await deployableQueryOf(req, rawQuery);
    const { items, total } = await this.nodeViews.deployable(asked);
    return page(items, total, asked.at, req, this.config.http.appUrl);
  }

  @Get(':id')
  @ApplicationRoute('nodes', 'read', 'node')
  async view(@Param('id', nodeId) id: string, @Query() query: Record<string, unknown>, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<FractalItem> {
    return (await this.nodeViews.views([toNodeResponse(await this.nodes.get(id))], includesOf(query, NODE_INCLUDES), key))[0];
  }

  /**
   * The bare configuration Wings writes as config.yml (`wings configure` fetches this with an application
   * key). It holds the daemon token: the key's owner must be able to change the node, not only read it.
   */
  @Get(':id/configuration')
  @ApplicationRoute('nodes', 'read', 'node')
  async configuration(@Param('id', nodeId) id: string, @PterodactylCaller() key: ResolvedPterodactylKey): Promise<DaemonConfiguration> {
    const node = await this.nodes.get(id);
    if (!this.roles.mayChangeNode(key.user, id)) {
      throw new AppException(PterodactylError.UNAUTHORIZED);
    }
    return this.nodes.configurationOf(node);
  }

  @Post()
  @HttpCode(201)
  @ApplicationRoute('nodes', 'write')
  async create(@PterodactylBody(StoreNodeBody) body: StoreNodeBody, @PterodactylActor() actor: Actor): Promise<FractalItem & { meta: { resource: string } }> {
    const node = await this.nodeViews.create(body, actor);
    return { ...(await this.nodeViews.views([toNodeResponse(node)]))[0], meta: { resource: new URL(`/api/application/nodes/${node.id}`, this.config.http.appUrl).toString() } };
  }

  @Patch(':id')
  @ApplicationRoute('nodes', 'write', 'node')
  async update(@Param('id', nodeId) id: string, @PterodactylBody(UpdateNodeBody) body: UpdateNodeBody, @PterodactylActor() actor: Actor): Promise<FractalItem> {
    return (await this.nodeViews.views([toNodeResponse(await this.nodeViews.update(id, body, actor))]))[0];
  }

  @Delete(':id')
  @HttpCode(204)
  @ApplicationRoute('nodes', 'write', 'node')
  async delete(@Param('id', nodeId) id: string, @PterodactylActor() actor: Actor): Promise<void> {
    await this.nodes.delete(id, actor);
  }

}
