import type { DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';

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

/** A server's live state and usage: `GET /api/client/servers/{server}/resources` (docs/api.md). */
export class ServerResourcesDto {
  /** The daemon's state: offline, starting, running or stopping. */
  currentState!: string;
  isSuspended!: boolean;
  resources!: ResourceUsageDto;
}

/** The same in a live-status frame (docs/api.md#live-status), where a server its node does not list has no usage. */
export type LiveServerResources = Omit<ServerResourcesDto, 'resources'> & { resources: ResourceUsageDto | null };

export const toServerResources = (details: DaemonServerDetails): ServerResourcesDto => {
  const u = details.utilization;
  return {
    currentState: details.state,
    isSuspended: details.is_suspended,
    resources: {
      memoryBytes: u.memory_bytes,
      memoryLimitBytes: u.memory_limit_bytes,
      cpuAbsolute: u.cpu_absolute,
      diskBytes: u.disk_bytes,
      networkRxBytes: u.network.rx_bytes,
      networkTxBytes: u.network.tx_bytes,
      uptime: u.uptime,
    },
  };
};
