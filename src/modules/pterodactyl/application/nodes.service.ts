import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { toLocationResponse } from 'src/modules/nodes/dto/location.dto';
import { NodeResponseDto, toNodeResponse } from 'src/modules/nodes/dto/node.dto';
import type { LocationEntity } from 'src/modules/nodes/location.entity';
import { LocationsService } from 'src/modules/nodes/locations.service';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodesService } from 'src/modules/nodes/nodes.service';
import type { DeployableNodesQuery } from 'src/modules/pterodactyl/application/dto/deployable-nodes.dto';
import { StoreNodeBody, toHatchery, UpdateNodeBody } from 'src/modules/pterodactyl/application/dto/node.dto';
import { allocationItem, locationItem, nodeItem } from 'src/modules/pterodactyl/application/transformers';
import { FractalItem, FractalList, list, NULL_RESOURCE, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { existsViolation, pterodactylValidationError } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { keyAllows, ResolvedPterodactylKey } from 'src/modules/pterodactyl/keys/pterodactyl-keys.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';

export const NODE_INCLUDES = ['allocations', 'location'] as const;
type NodeInclude = (typeof NODE_INCLUDES)[number];

/** Every allocation of a node, as an include lists them. */
const EVERYTHING = { page: 1, perPage: 1_000_000, skip: 0 };

const NODE_ERRORS = {
  LOCATION_NOT_FOUND: () => existsViolation('location_id'),
  NODE_BASE_URL_TAKEN: () =>
    pterodactylValidationError([{ field: 'fqdn', rule: 'unique', detail: 'Another node already uses this scheme, FQDN and daemon port.' }]),
};

/** The application API's nodes: their views with the includes asked for, the deployable ones, and the writes in Hatchery's terms. */
@Injectable()
export class ApplicationNodesService {
  constructor(
    private readonly nodes: NodesService,
    private readonly servers: AdminServersService,
    private readonly allocations: AllocationsService,
    private readonly locations: LocationsService,
  ) {}

  /** Nodes with room for the memory and disk asked for (FindViableNodesService), one page of them, as they show without includes. */
  async deployable({ memory, disk, locationIds, at }: DeployableNodesQuery): Promise<{ items: FractalItem[]; total: number }> {
    const [ids, total] = await this.servers.deployableNodeIds(locationIds, memory, disk, at);
    const found = await Promise.all(ids.map((id) => this.nodes.get(id)));
    return { items: await this.views(found.map(toNodeResponse)), total };
  }

  create(body: StoreNodeBody, actor: Actor): Promise<NodeEntity> {
    const { name, fqdn, memory, disk, ...rest } = toHatchery(body);
    return translating(this.nodes.create({ name: name!, fqdn: fqdn!, memory: memory!, disk: disk!, ...rest }, actor), NODE_ERRORS);
  }

  async update(id: string, body: UpdateNodeBody, actor: Actor): Promise<NodeEntity> {
    const { node } = await translating(this.nodes.update(id, toHatchery(body), actor), NODE_ERRORS);
    return node;
  }

  /** The nodes as Pterodactyl shows them, with the relationships asked for that the key may read (their locations read at once). */
  async views(nodes: NodeResponseDto[], includes: Set<NodeInclude> = new Set(), key?: ResolvedPterodactylKey): Promise<FractalItem[]> {
    const allocated = await this.servers.allocatedByNode(nodes.map((n) => n.id));
    const may = (resource: 'allocations' | 'locations'): boolean => key !== undefined && keyAllows(key.permissions, resource, 'read');
    const locationIds = [...new Set(nodes.flatMap((n) => (n.locationId !== null ? [n.locationId] : [])))];
    const locations = includes.has('location') && may('locations') ? await this.locations.findLocations(locationIds) : new Map<string, LocationEntity>();
    return Promise.all(
      nodes.map(async (n) => {
        const relationships: Record<string, FractalItem | FractalList> = {};
        if (includes.has('allocations')) {
          relationships.allocations = may('allocations') ? list((await this.allocations.list(n.id, EVERYTHING)).data.map(allocationItem)) : NULL_RESOURCE;
        }
        if (includes.has('location')) {
          const location = n.locationId !== null ? locations.get(n.locationId) : undefined;
          relationships.location = may('locations') && location ? locationItem(toLocationResponse(location)) : NULL_RESOURCE;
        }
        return withRelationships(nodeItem(n, allocated.get(n.id) ?? { memory: 0, disk: 0 }), relationships);
      }),
    );
  }
}
