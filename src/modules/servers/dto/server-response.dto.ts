import { ApiProperty } from '@nestjs/swagger';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import type { ListedServer } from 'src/modules/servers/server.entity';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import type { AllocationSnapshot } from 'src/modules/nodes/allocation-snapshot';
import type { ClientListRow } from 'src/modules/servers/server-list.repository';

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
  /** It is moving to another node (Pterodactyl's `is_transferring`): power actions and the like answer 409 meanwhile. */
  transferring!: boolean;
  node!: { id: string; name: string };
  limits!: { memory: number; disk: number; cpu: number; swap: number | null; io: number };
  createdAt!: string;
  allocations!: { primary: AllocationViewDto | null; additional: AllocationViewDto[] };
  owner!: { id: string; username: string };
  permissions!: string[];
}

export class SftpDetailsDto {
  /** The node's address. */
  host!: string;
  /** The node's SFTP port. */
  port!: number;
  /** `<your username>.<server identifier>`, the name the node's SFTP server splits at its last dot (docs/wings.md#sftp). */
  username!: string;
}

export class FeatureLimitsDto {
  /** 0: unlimited; -1: none; otherwise at most this many. */
  databases!: number;
  allocations!: number;
  backups!: number;
}

/** `GET /api/client/servers/{server}`: the list item plus what the server's pages need. */
export class ClientServerDetailsDto extends ServerDetailsDto {
  sftp!: SftpDetailsDto;
  /** The largest upload the node takes, in MiB (413 FILE_TOO_LARGE above it). */
  uploadSizeMiB!: number;
  featureLimits!: FeatureLimitsDto;
  egg!: { id: string; name: string };
  /** The Docker image the server runs in. */
  image!: string;
}

/** The admin view: the client details plus what an administrator manages. */
export class AdminServerDto extends ServerDetailsDto {
  /** The id a billing system knows the server by. */
  externalId!: string | null;
  ownerId!: string;
  nodeId!: string;
  eggId!: string;
  allocationId!: string | null;
  startup!: string;
  image!: string;
  threads!: string | null;
  oomDisabled!: boolean;
  skipScripts!: boolean;
  featureLimits!: FeatureLimitsDto;
  installStatus!: string | null;
  installedAt!: string | null;
  updatedAt!: string;
}

type AllocationFields = Pick<AllocationEntity, 'id' | 'ip' | 'alias' | 'port' | 'notes'>;

const view = (a: AllocationFields): AllocationViewDto => ({ ip: a.alias ?? a.ip, port: a.port, description: a.notes ?? '' });

/** A server's allocations as its answers show them: the primary one, and the others in the given order. */
const allocationViews = (allocations: readonly AllocationFields[], primaryId: string | null): ServerDetailsDto['allocations'] => {
  const primary = allocations.find((a) => a.id === primaryId);
  return { primary: primary ? view(primary) : null, additional: allocations.filter((a) => a !== primary).map(view) };
};

export const toServerDetails = (
  server: ListedServer,
  allocations: readonly AllocationFields[],
  status: string,
  permissions: readonly string[],
): ServerDetailsDto => {
  return {
    id: server.id,
    uuid: server.uuid,
    identifier: server.identifier,
    name: server.name,
    description: server.description,
    status,
    suspended: server.suspended,
    transferring: (server.activeTransfer ?? null) !== null,
    node: { id: server.node.id, name: server.node.name },
    limits: { memory: server.memory, disk: server.disk, cpu: server.cpu, swap: server.swap, io: server.io },
    createdAt: server.createdAt.toISOString(),
    allocations: allocationViews(allocations, server.allocationId),
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
  return {
    id: row.id,
    uuid: row.uuid,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    status,
    suspended: row.suspended,
    transferring: row.transferring,
    node: { id: row.node_id, name: row.node_name },
    limits: { memory: row.memory, disk: row.disk, cpu: row.cpu, swap: row.swap, io: row.io },
    createdAt: row.created_at,
    allocations: allocationViews(row.allocations, row.allocation_id),
    owner: { id: row.owner_id, username: row.owner_username },
    permissions,
  };
};

const featureLimits = (server: Pick<ListedServer, 'databaseLimit' | 'allocationLimit' | 'backupLimit'>): FeatureLimitsDto => ({
  databases: server.databaseLimit,
  allocations: server.allocationLimit,
  backups: server.backupLimit,
});

/**
 * `username` is the caller's: SFTP signs in the account that uses it, whoever owns the server.
 * Built straight from the shared snapshot (the hottest answer of the panel): `permissions` is used as
 * given, never changed.
 */
export const toClientServerDetails = (
  server: ServerSnapshot,
  allocations: readonly AllocationSnapshot[],
  status: string,
  permissions: readonly string[],
  username: string,
): ClientServerDetailsDto => {
  return {
    id: server.id,
    uuid: server.uuid,
    identifier: server.identifier,
    name: server.name,
    description: server.description,
    status,
    suspended: server.suspended,
    transferring: server.transferring,
    node: { id: server.node.id, name: server.node.name },
    limits: { memory: server.memory, disk: server.disk, cpu: server.cpu, swap: server.swap, io: server.io },
    createdAt: new Date(server.createdAt).toISOString(),
    allocations: allocationViews(allocations, server.allocationId),
    owner: { id: server.owner.id, username: server.owner.username },
    permissions: permissions as string[],
    sftp: { host: server.node.fqdn, port: server.node.daemonSftp, username: `${username}.${server.identifier}` },
    uploadSizeMiB: server.node.uploadSize,
    featureLimits: featureLimits(server),
    egg: { id: server.egg.id, name: server.egg.name },
    image: server.image,
  };
};

export const toAdminServer = (server: ListedServer, allocations: readonly AllocationFields[]): AdminServerDto => ({
  ...toServerDetails(server, allocations, server.status ?? (server.suspended ? 'suspended' : 'installed'), ['*']),
  externalId: server.externalId,
  ownerId: server.ownerId,
  nodeId: server.nodeId,
  eggId: server.eggId,
  allocationId: server.allocationId,
  startup: server.startup,
  image: server.image,
  threads: server.threads,
  oomDisabled: server.oomDisabled,
  skipScripts: server.skipScripts,
  featureLimits: featureLimits(server),
  installStatus: server.status,
  installedAt: server.installedAt?.toISOString() ?? null,
  updatedAt: server.updatedAt.toISOString(),
});

export class PowerResultDto {
  success!: boolean;
  message!: string;
}

/** Console credentials: a JWT for the node and the socket to send it to (docs/wings.md#console-tokens). */
export class WebsocketTokenDto {
  token!: string;
  socket!: string;
}

export class WebsocketDiagnosticsDto {
  error!: string;
  serverUuid!: string;
  serverIdentifier!: string;
  nodeId!: string;
  serverStatus!: string | null;
}

/** The node does not know the server: no token, and what the panel knows instead. */
export class WebsocketUnavailableDto {
  @ApiProperty({ enum: [true] })
  unavailable!: true;

  message!: string;
  diagnostics!: WebsocketDiagnosticsDto;
}

export class ActivityActorDto {
  id!: string | null;
  username!: string | null;
}

export class ServerActivityDto {
  id!: string;
  event!: string;
  /** null: the system or the node did it. */
  actor!: ActivityActorDto | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;

  /** null for subusers, and when no address was known. */
  ip!: string | null;
  /** What acted when no user did (schedule, sftp, daemon...). */
  via!: string | null;
  timestamp!: string;
}

/** What the servers on one node hold of it: the sums of their limits (0 = unlimited counts as 0). */
export class NodeUsageDto {
  nodeId!: string;
  servers!: number;
  /** MiB. */
  memory!: number;
  /** MiB. */
  disk!: number;
}

/** One of the egg's variables with the server's value, as an administrator sees it (all of them). */
export class AdminStartupVariableDto {
  envVariable!: string;
  name!: string;
  description!: string;
  defaultValue!: string;
  /** The server's value, or the default when it has none of its own. */
  serverValue!: string;
  rules!: string;
  userViewable!: boolean;
  userEditable!: boolean;
}

/** `GET /api/admin/servers/{id}/startup`: what `PATCH .../startup` changes, as it is now. */
export class AdminStartupDto {
  startup!: string;
  image!: string;
  skipScripts!: boolean;
  /** The egg's default command, to go back to. */
  eggStartup!: string;
  dockerImages!: { name: string; image: string }[];
  variables!: AdminStartupVariableDto[];
}

/** Whether the node was told about the change (`/sync`); the change itself is saved either way. */
export class SyncOutcomeDto {
  daemonSynced!: boolean;
  /** Why the node was not told, when it was not. */
  syncError?: string;
}
