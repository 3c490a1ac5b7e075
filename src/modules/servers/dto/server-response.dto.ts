import { ApiProperty } from '@nestjs/swagger';
import type { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import type { ListedServer, LoadedServer } from 'src/modules/servers/server.entity';

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

export class SftpDetailsDto {
  /** The node's address. */
  host!: string;
  /** The node's SFTP port. */
  port!: number;
  /** `<your username>.<server identifier>`, the name the node's SFTP server splits at its last dot (docs/wings.md#sftp). */
  username!: string;
}

export class FeatureLimitsDto {
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

const view = (a: AllocationEntity): AllocationViewDto => ({ ip: a.alias ?? a.ip, port: a.port, description: a.notes ?? '' });

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

const featureLimits = (server: Pick<ListedServer, 'databaseLimit' | 'allocationLimit' | 'backupLimit'>): FeatureLimitsDto => ({
  databases: server.databaseLimit,
  allocations: server.allocationLimit,
  backups: server.backupLimit,
});

/** `username` is the caller's: SFTP signs in the account that uses it, whoever owns the server. */
export const toClientServerDetails = (
  server: Readonly<LoadedServer>,
  allocations: AllocationEntity[],
  status: string,
  permissions: readonly string[],
  username: string,
): ClientServerDetailsDto => ({
  ...toServerDetails(server, allocations, status, permissions),
  sftp: { host: server.node.fqdn, port: server.node.daemonSftp, username: `${username}.${server.identifier}` },
  uploadSizeMiB: server.node.uploadSize,
  featureLimits: featureLimits(server),
  egg: { id: server.egg.id, name: server.egg.name },
  image: server.image,
});

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
  featureLimits: featureLimits(server),
  installStatus: server.status,
  installedAt: server.installedAt?.toISOString() ?? null,
  updatedAt: server.updatedAt.toISOString(),
});

export class PowerResultDto {
  success!: boolean;
  message!: string;
}

/** The server's usage as its node last reported it (uptime in milliseconds; cpuAbsolute 100 = one core). */
export class ResourceUsageDto {
  memoryBytes!: number;
  memoryLimitBytes!: number;
  cpuAbsolute!: number;
  diskBytes!: number;
  networkRxBytes!: number;
  networkTxBytes!: number;
  uptime!: number;
}

export class ServerResourcesDto {
  /** The daemon's state: offline, starting, running or stopping. */
  currentState!: string;
  isSuspended!: boolean;
  resources!: ResourceUsageDto;
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

/** Whether the node was told about the change (`/sync`); the change itself is saved either way. */
export class SyncOutcomeDto {
  daemonSynced!: boolean;
  /** Why the node was not told, when it was not. */
  syncError?: string;
}
