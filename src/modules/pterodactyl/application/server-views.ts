import { Injectable } from '@nestjs/common';
import { DatabaseRecord, ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import type { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import type { EggEntity } from 'src/modules/eggs/egg.entity';
import { EggsService } from 'src/modules/eggs/eggs.service';
import type { NestEntity } from 'src/modules/eggs/nest.entity';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import type { AllocationResponseDto } from 'src/modules/nodes/dto/allocation.dto';
import { toLocationResponse } from 'src/modules/nodes/dto/location.dto';
import { toNodeResponse } from 'src/modules/nodes/dto/node.dto';
import type { LocationEntity } from 'src/modules/nodes/location.entity';
import { LocationsService } from 'src/modules/nodes/locations.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import type { AdminServerDto } from 'src/modules/servers/dto/server-response.dto';
import { ServerConfigService } from 'src/modules/servers/server-config.service';
import type { LoadedServer } from 'src/modules/servers/server.entity';
import { toAdminUserResponse } from 'src/modules/users/dto/user-response.dto';
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
    private readonly locations: LocationsService,
    private readonly databases: ServerDatabasesService,
  ) {}

  /**
   * Servers with the relationships asked for; each needs the key's read permission on its resource,
   * else it is a null resource, as Pterodactyl's transformer answers. A page costs the same number
   * of queries whatever its length: each kind of row loads once for all its servers.
   */
  async views(servers: AdminServerDto[], includes: Set<ServerInclude> = new Set(), key?: ResolvedPterodactylKey): Promise<FractalItem[]> {
    const may = (resource: ApplicationResource): boolean => key !== undefined && keyAllows(key.permissions, resource, 'read');
    const ids = servers.map((s) => s.id);
    // The servers' rows with node and owner only when an include shows them: hydrating them cost a
    // page more than all the rest. Environments come from the cached Wings configurations.
    const loaded = includes.has('user') || includes.has('node') || includes.has('location') ? await this.servers.findLoadedMany(ids) : new Map<string, LoadedServer>();
    const rows = [...loaded.values()];
    const configurations = await this.serverConfig.configurationsOf(ids);
    const environments = new Map([...configurations].map(([id, configuration]) => [id, configuration.settings.environment]));
    const eggs = await this.eggs.findEggs([...new Set(servers.map((s) => s.eggId))]);
    const allocations = includes.has('allocations') && may('allocations') ? await this.allocations.ofServers(ids) : new Map<string, AllocationResponseDto[]>();
    const databases = includes.has('databases') && may('server_databases') ? await this.databases.recordsOfServers(ids) : new Map<string, DatabaseRecord[]>();
    const variables = includes.has('variables') && may('servers') ? await this.eggs.variablesOfEggs([...eggs.keys()]) : new Map<string, EggVariableEntity[]>();
    const scriptSources =
      includes.has('egg') && may('eggs') ? await this.eggs.findEggs([...new Set([...eggs.values()].flatMap((e) => (e.copyScriptFrom ? [e.copyScriptFrom] : [])))]) : new Map<string, EggEntity>();
    const nodeIds = [...new Set(servers.map((s) => s.nodeId))];
    const allocated = includes.has('node') && may('nodes') ? await this.servers.allocatedByNode(nodeIds) : new Map<string, { memory: number; disk: number }>();
    const locationIds = [...new Set(rows.flatMap((row) => (row.node.locationId ? [row.node.locationId] : [])))];
    const locations = includes.has('location') && may('locations') ? await this.locations.findLocations(locationIds) : new Map<string, LocationEntity>();

    return servers.map((server) => {
      const egg = eggs.get(server.eggId) ?? null;
      const row = loaded.get(server.id);
      const environment = environments.get(server.id) ?? {};
      const relationships: Record<string, FractalItem | FractalList> = {};
      if (includes.has('allocations')) {
        relationships.allocations = may('allocations') ? list((allocations.get(server.id) ?? []).map(allocationItem)) : NULL_RESOURCE;
      }
      if (includes.has('databases')) {
        relationships.databases = may('server_databases') ? list((databases.get(server.id) ?? []).map(databaseItem)) : NULL_RESOURCE;
      }
      if (includes.has('user')) {
        relationships.user = may('users') && row ? userItem(toAdminUserResponse(row.owner)) : NULL_RESOURCE;
      }
      if (includes.has('nest')) {
        relationships.nest = may('nests') && egg ? nestItem(egg.nest) : NULL_RESOURCE;
      }
      if (includes.has('egg')) {
        const source = egg?.copyScriptFrom ? scriptSources.get(egg.copyScriptFrom) : undefined;
        relationships.egg = may('eggs') && egg ? eggItem(egg, egg.nest, source?.intId ?? null) : NULL_RESOURCE;
      }
      if (includes.has('variables')) {
        relationships.variables = may('servers') && egg ? variablesOf(egg, variables.get(egg.id) ?? [], environment) : NULL_RESOURCE;
      }
      if (includes.has('node')) {
        relationships.node = may('nodes') && row ? nodeItem(toNodeResponse(row.node), allocated.get(row.node.id) ?? { memory: 0, disk: 0 }) : NULL_RESOURCE;
      }
      if (includes.has('location')) {
        const location = row?.node.locationId ? locations.get(row.node.locationId) : undefined;
        relationships.location = may('locations') && location ? locationItem(toLocationResponse(location)) : NULL_RESOURCE;
      }
      return withRelationships(serverItem(server, { egg: egg?.intId ?? 0, nest: egg?.nest.intId ?? 0 }, environment), relationships);
    });
  }
}

/** ServerVariableTransformer: the egg's variable with the server's value (its own, else the default, as its environment has it). */
const variablesOf = (egg: EggEntity & { nest: NestEntity }, variables: EggVariableEntity[], environment: Record<string, string | number>): FractalList =>
  list(
    variables.map((v) =>
      item('server_variable', { ...eggVariableItem(v, egg).attributes, server_value: environment[v.envVariable] === undefined ? v.defaultValue : String(environment[v.envVariable]) }),
    ),
  );
