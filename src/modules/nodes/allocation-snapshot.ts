import { AllocationEntity } from 'src/modules/nodes/allocation.entity';

/** An allocation as the cache keeps it: plain values, its date as epoch milliseconds. */
export type AllocationSnapshot = Readonly<Omit<AllocationEntity, 'createdAt' | 'node' | 'server' | 'reservedByTransfer'> & { createdAt: number }>;

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    allocations: readonly AllocationSnapshot[];
  }
}

export const allocationSnapshot = (a: AllocationEntity): AllocationSnapshot => ({
  id: a.id,
  nodeId: a.nodeId,
  ip: a.ip,
  port: a.port,
  alias: a.alias,
  notes: a.notes,
  serverId: a.serverId,
  reservedByTransferId: a.reservedByTransferId,
  createdAt: a.createdAt.getTime(),
});

/** The caller's own row, built from the snapshot. */
export const allocationFrom = (a: AllocationSnapshot): AllocationEntity => Object.assign(new AllocationEntity(), { ...a, createdAt: new Date(a.createdAt) });

export const allocationTags = (serverId: string, rows: readonly AllocationSnapshot[]): string[] => [
  `server:${serverId}`,
  `allocations:${serverId}`,
  ...rows.map((a) => `allocation:${a.id}`),
];
