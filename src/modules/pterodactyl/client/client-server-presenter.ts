import { Injectable } from '@nestjs/common';
import { FractalItem, int, item, list, NULL_RESOURCE } from 'src/modules/pterodactyl/common/fractal';
import { allocationItem, ClientAllocation, variableItem } from 'src/modules/pterodactyl/client/client-transformers';
import { AllocationsService } from 'src/modules/nodes/allocations.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { ClientServerSettingsService } from 'src/modules/servers/client-server-settings.service';
import type { StartupDto } from 'src/modules/servers/dto/server-settings.dto';
import type { ServerContext } from 'src/modules/servers/server-context';
import type { UserEntity } from 'src/modules/users/user.entity';
import { toPterodactylDatabaseLimit } from 'src/modules/pterodactyl/common/database-limit';

/** What the item shows of a server's node and egg beyond its context. */
interface ServerExtras {
  maintenance: boolean;
  eggUuid: string;
  eggName: string;
  eggFeatures: string[];
  hasTransfer: boolean;
}

/** A server deleted since its context was read. */
const NO_EXTRAS: ServerExtras = { maintenance: false, eggUuid: '', eggName: '', eggFeatures: [], hasTransfer: false };

/** What a server's item shows beyond its context, loaded for a whole page at once. */
interface Loaded {
  extras: ServerExtras;
  allocations: ClientAllocation[];
  startup: StartupDto | null;
}

/** Pterodactyl's client ServerTransformer, with its default includes (allocations, variables) and `?include=egg`. */
@Injectable()
export class PterodactylServerPresenter {
  constructor(
    private readonly servers: AdminServersService,
    private readonly allocations: AllocationsService,
    private readonly settings: ClientServerSettingsService,
  ) {}

  async present(access: ServerContext, user: UserEntity, includeEgg: boolean): Promise<FractalItem> {
    const [item] = await this.presentMany([access], user, includeEgg);
    return item;
  }

  /** Many servers (a list page) in a fixed number of queries, whatever their count. */
  async presentMany(accesses: ServerContext[], user: UserEntity, includeEgg: boolean): Promise<FractalItem[]> {
    const ids = accesses.map((a) => a.server.id);
    const [loaded, allocations, startups] = await Promise.all([
      this.servers.findLoadedMany(ids),
      this.allocations.ofServers(ids),
      this.settings.startupOfMany(accesses.filter((a) => a.permissions.includes('server.startup.read'))),
    ]);
    return accesses.map((access) => {
      const row = loaded.get(access.server.id);
      const extras: ServerExtras = row
        ? { maintenance: row.node.maintenanceMode, eggUuid: row.egg.id, eggName: row.egg.name, eggFeatures: row.egg.features ?? [], hasTransfer: false }
        : NO_EXTRAS;
      return this.item(access, user, includeEgg, {
        extras,
        allocations: allocations.get(access.server.id) ?? [],
        startup: startups.get(access.server.id) ?? null,
      });
    });
  }

  private item(access: ServerContext, user: UserEntity, includeEgg: boolean, { extras, allocations, startup }: Loaded): FractalItem {
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
      relationships.egg = item('egg', { uuid: extras.eggUuid, name: extras.eggName });
    }
    return item('server', {
      server_owner: server.ownerId === user.id,
      identifier: server.identifier,
      internal_id: int(server.id),
      uuid: server.uuid,
      name: server.name,
      node: server.node.name,
      is_node_under_maintenance: extras.maintenance,
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
      egg_features: extras.eggFeatures,
      feature_limits: { databases: toPterodactylDatabaseLimit(server.databaseLimit), allocations: server.allocationLimit, backups: server.backupLimit },
      status: server.suspended ? 'suspended' : server.status,
      is_suspended: server.suspended,
      is_installing: server.installedAt === null,
      is_transferring: extras.hasTransfer,
      relationships,
    });
  }
}
