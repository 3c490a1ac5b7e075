import type { DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';

/** A server's live state and usage: `GET /api/client/servers/{server}/resources` and the live-status frames (docs/api.md#live-status). */
export interface ServerResourcesDto {
  currentState: string;
  isSuspended: boolean;
  resources: {
    memoryBytes: number;
    memoryLimitBytes: number;
    cpuAbsolute: number;
    diskBytes: number;
    networkRxBytes: number;
    networkTxBytes: number;
    uptime: number;
  } | null;
}

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
