import { Injectable } from '@nestjs/common';
import { DatabaseRecord, ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import { EggsService } from 'src/modules/eggs/eggs.service';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import type { AllocationResponseDto } from 'src/modules/nodes/dto/allocation.dto';
import { toLocationResponse } from 'src/modules/nodes/dto/location.dto';
import { toNodeResponse } from 'src/modules/nodes/dto/node.dto';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import { ServerConfigService } from 'src/modules/servers/server-config.service';
import { toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
import { UsersService } from 'src/modules/users/users.service';
import { allocationItem, databaseItem, eggItem, eggVariableItem, locationItem, nestItem, nodeItem, serverItem, userItem } from 'src/modules/pterodactyl/application/transformers';
import { FractalItem, FractalList, item, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import type { ApplicationResource } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';

/** ServerTransformer's includes. */
export const SERVER_INCLUDES = ['allocations', 'user', 'nest', 'egg', 'variables', 'location', 'node', 'databases'] as const;
type ServerInclude = (typeof SERVER_INCLUDES)[number];

/** Servers as the application API shows them (its /servers routes and a user's `servers` include). */
@Injectable()
export class ApplicationServerViews {
  constructor(
    private readonly servers: AdminServersService,
    private readonly eggs: EggsService,
    private readonly serverConfig: ServerConfigService,
    private readonly allocations: AllocationsService,
    private readonly users: UsersService,
    private readonly nodes: NodesService,
    private readonly locations: LocationsService,
    private readonly databases: ServerDatabasesService,
  ) {}

  /**
   * Servers with the relationships asked for; each needs the key's read permission on its resource,
   * else it is a null resource, as Pterodactyl's transformer answers. Allocations and databases
   * load in one query each for the whole page.
   */
  async views(servers: AdminServerDto[], includes: Set<ServerInclude> = new Set(), key?: ResolvedPterodactylKey): Promise<FractalItem[]> {
    const may = (resource: ApplicationResource): boolean => key !== undefined && keyAllows(key.permissions, resource, 'read');
    const ids = servers.map((s) => s.id);
    const allocations = includes.has('allocations') && may('allocations') ? await this.allocations.ofServers(ids) : new Map<string, AllocationResponseDto[]>();
    const databases = includes.has('databases') && may('server_databases') ? await this.databases.recordsOfServers(ids) : new Map<string, DatabaseRecord[]>();
    return Promise.all(
      servers.map(async (server) => {
        const egg = await this.eggs.findEgg(server.eggId);
        const loaded = await this.servers.findLoaded(server.id);
        const environment = loaded ? (await this.serverConfig.configuration(loaded)).settings.environment : {};
        const relationships: Record<string, FractalItem | FractalList> = {};
        if (includes.has('allocations')) {
          relationships.allocations = may('allocations') ? list((allocations.get(server.id) ?? []).map(allocationItem)) : NULL_RESOURCE;
        }
        if (includes.has('databases')) {
          relationships.databases = may('server_databases') ? list((databases.get(server.id) ?? []).map(databaseItem)) : NULL_RESOURCE;
        }
        if (includes.has('user')) {
          relationships.user = may('users') ? userItem(toAdminUserResponse(await this.users.get(server.ownerId))) : NULL_RESOURCE;
        }
        if (includes.has('nest')) {
          relationships.nest = may('nests') && egg ? nestItem(egg.nest) : NULL_RESOURCE;
        }
        if (includes.has('egg')) {
          const source = egg?.copyScriptFrom ? await this.eggs.findEgg(egg.copyScriptFrom) : null;
          relationships.egg = may('eggs') && egg ? eggItem(egg, egg.nest, source?.intId ?? null) : NULL_RESOURCE;
        }
        if (includes.has('variables')) {
          relationships.variables = may('servers') && egg ? await this.variablesOf(server, egg) : NULL_RESOURCE;
        }
        if (includes.has('node') || includes.has('location')) {
          const node = toNodeResponse(await this.nodes.get(server.nodeId));
          if (includes.has('node')) {
            const allocated = (await this.servers.allocatedByNode([node.id])).get(node.id) ?? { memory: 0, disk: 0 };
            relationships.node = may('nodes') ? nodeItem(node, allocated) : NULL_RESOURCE;
          }
          if (includes.has('location')) {
            relationships.location = may('locations') && node.locationId !== null ? locationItem(toLocationResponse(await this.locations.get(node.locationId))) : NULL_RESOURCE;
          }
        }
        return withRelationships(serverItem(server, { egg: egg?.intId ?? 0, nest: egg?.nest.intId ?? 0 }, environment), relationships);
      }),
    );
  }

  /** ServerVariableTransformer: the egg's variable with the server's value. */
  private async variablesOf(server: AdminServerDto, egg: NonNullable<Awaited<ReturnType<EggsService['findEgg']>>>): Promise<FractalList> {
    const values = new Map((await this.servers.startup(server.id)).variables.map((v) => [v.envVariable, v.serverValue]));
    return list(
      (await this.eggs.variablesOf(egg.id)).map((v) => item('server_variable', { ...eggVariableItem(v, egg).attributes, server_value: values.get(v.envVariable) ?? v.defaultValue })),
    );
  }
}
