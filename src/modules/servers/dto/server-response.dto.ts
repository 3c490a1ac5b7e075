import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import type { ListedServer } from 'src/modules/servers/server.entity';
import type { ClientListRow } from 'src/modules/servers/servers.repository';

export class AllocationViewDto {
  ip!: string;
  port!: number;
  description!: string;
}

/** A server's details, as the client API shows them. */
export class ServerDetailsDto {
  id!: string;
  uuid!: string;
  identifier!: string;
  name!: string;
  description!: string | null;
  status!: string;
  suspended!: boolean;
  node!: { id: string; name: string };
  limits!: { memory: number; disk: number; cpu: number; swap: number | null; io: number };
  createdAt!: string;
  allocations!: { primary: AllocationViewDto | null; additional: AllocationViewDto[] };
  owner!: { id: string; username: string };
  permissions!: string[];
}

/** The admin view: the client details plus what an administrator manages. */
export class AdminServerDto extends ServerDetailsDto {
  ownerId!: string;
  nodeId!: string;
  eggId!: string;
  allocationId!: string | null;
  startup!: string;
  image!: string;
  threads!: string | null;
  oomDisabled!: boolean;
  skipScripts!: boolean;
  featureLimits!: { databases: number; allocations: number; backups: number };
  installStatus!: string | null;
  installedAt!: string | null;
  updatedAt!: string;
}

const view = (a: Pick<AllocationEntity, 'ip' | 'alias' | 'port' | 'notes'>): AllocationViewDto => ({ ip: a.alias ?? a.ip, port: a.port, description: a.notes ?? '' });

export const toServerDetails = (
  server: ListedServer,
  allocations: AllocationEntity[],
  status: string,
  permissions: readonly string[],
): ServerDetailsDto => {
  const primary = allocations.find((a) => a.id === server.allocationId) ?? null;
  return {
    id: server.id,
    uuid: server.uuid,
    identifier: server.identifier,
    name: server.name,
    description: server.description,
    status,
    suspended: server.suspended,
    node: { id: server.node.id, name: server.node.name },
    limits: { memory: server.memory, disk: server.disk, cpu: server.cpu, swap: server.swap, io: server.io },
    createdAt: server.createdAt.toISOString(),
    allocations: { primary: primary ? view(primary) : null, additional: allocations.filter((a) => a !== primary).map(view) },
    owner: { id: server.owner.id, username: server.owner.username },
    permissions: [...permissions],
  };
};

/**
 * A row of a client list page as the list shows it: the same fields as toServerDetails, from the raw
 * row. `permissions` is used as given, not copied: the rows of a page share one array, serialized
 * at once.
 */
export const toListedServerDetails = (row: ClientListRow, status: string, permissions: string[]): ServerDetailsDto => {
  const primary = row.allocations.find((a) => a.id === row.allocation_id);
  return {
    id: row.id,
    uuid: row.uuid,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    status,
    suspended: row.suspended,
    node: { id: row.node_id, name: row.node_name },
    limits: { memory: row.memory, disk: row.disk, cpu: row.cpu, swap: row.swap, io: row.io },
    createdAt: row.created_at,
    allocations: { primary: primary ? view(primary) : null, additional: row.allocations.filter((a) => a !== primary).map(view) },
    owner: { id: row.owner_id, username: row.owner_username },
    permissions,
  };
};

export const toAdminServer = (server: ListedServer, allocations: AllocationEntity[]): AdminServerDto => ({
  ...toServerDetails(server, allocations, server.status ?? (server.suspended ? 'suspended' : 'installed'), ['*']),
  ownerId: server.ownerId,
  nodeId: server.nodeId,
  eggId: server.eggId,
  allocationId: server.allocationId,
  startup: server.startup,
  image: server.image,
  threads: server.threads,
  oomDisabled: server.oomDisabled,
  skipScripts: server.skipScripts,
  featureLimits: { databases: server.databaseLimit, allocations: server.allocationLimit, backups: server.backupLimit },
  installStatus: server.status,
  installedAt: server.installedAt?.toISOString() ?? null,
  updatedAt: server.updatedAt.toISOString(),
});
