import { Injectable } from '@nestjs/common';
import { FractalItem, int, item, list, NULL_RESOURCE } from 'src/modules/pterodactyl/common/fractal';
import { allocationItem, ClientAllocation, variableItem } from 'src/modules/pterodactyl/client/client-transformers';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import type { StartupDto } from 'src/modules/servers/dto/server-settings.dto';
import type { ServerContext } from 'src/modules/servers/server-context';
import type { UserEntity } from 'src/modules/users/user.entity';
import { toPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';

/** What a server's item shows beyond its context, loaded for a whole page at once. */
interface Loaded {
  allocations: ClientAllocation[];
  startup: StartupDto | null;
}

/** Pterodactyl's client ServerTransformer, with its default includes (allocations, variables) and `?include=egg`. */
@Injectable()
export class PterodactylServerPresenter {
  constructor(
    private readonly allocations: AllocationsService,
    private readonly settings: ClientServerSettingsService,
  ) {}

  async present(access: ServerContext, user: UserEntity, includeEgg: boolean): Promise<FractalItem> {
    const [item] = await this.presentMany([access], user, includeEgg);
    return item;
  }

  /**
   * Many servers (a list page) in two queries whatever their count: the contexts (cached snapshots) hold
   * the node and egg fields an item shows, so only allocations and variable values are read.
   */
  async presentMany(accesses: ServerContext[], user: UserEntity, includeEgg: boolean): Promise<FractalItem[]> {
    const ids = accesses.map((a) => a.server.id);
    const [allocations, startups] = await Promise.all([
      this.allocations.ofServers(ids),
      this.settings.startupOfMany(accesses.filter((a) => a.permissions.includes('server.startup.read'))),
    ]);
    return accesses.map((access) =>
      this.item(access, user, includeEgg, {
        allocations: allocations.get(access.server.id) ?? [],
        startup: startups.get(access.server.id) ?? null,
      }),
    );
  }

  private item(access: ServerContext, user: UserEntity, includeEgg: boolean, { allocations, startup }: Loaded): FractalItem {
    const { server } = access;
    const canAllocations = access.permissions.includes('server.allocation.read');
    // Without startup.read every value is hidden, as Pterodactyl's StartupCommandService does.
    const invocation = startup?.startup ?? server.startup.replace(/\{\{\s*[A-Za-z0-9_.]+\s*\}\}/g, '[hidden]');
    // Without allocation.read only the primary allocation shows, and without its notes.
    const shown = canAllocations ? allocations : allocations.filter((a) => a.id === server.allocationId);
    const relationships: Record<string, unknown> = {
      allocations: list(shown.map((a) => allocationItem(a, server.allocationId, !canAllocations))),
      variables: startup ? list(startup.variables.map(variableItem)) : NULL_RESOURCE,
    };
    if (includeEgg) {
      relationships.egg = item('egg', { uuid: server.egg.id, name: server.egg.name });
    }
    return item('server', {
      server_owner: server.ownerId === user.id,
      identifier: server.identifier,
      internal_id: int(server.id),
      uuid: server.uuid,
      name: server.name,
      node: server.node.name,
      is_node_under_maintenance: server.nodeMaintenance,
      sftp_details: { ip: server.node.fqdn, port: server.node.daemonSftp },
      description: server.description ?? '',
      limits: {
        memory: server.memory,
        swap: server.swap,
        disk: server.disk,
        io: server.io,
        cpu: server.cpu,
        threads: server.threads,
        oom_disabled: server.oomDisabled,
      },
      invocation,
      docker_image: server.image,
      egg_features: [...server.egg.features],
      feature_limits: { databases: toPterodactylDatabaseLimit(server.databaseLimit), allocations: server.allocationLimit, backups: server.backupLimit },
      status: server.suspended ? 'suspended' : server.status,
      is_suspended: server.suspended,
      is_installing: server.installedAt === null,
      is_transferring: server.transferring,
      relationships,
    });
  }
}
