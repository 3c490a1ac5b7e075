import type { AdminNode, NodeUsage } from '@/features/admin-servers/api';

/** One resource of a node: what it offers with its overallocation, what servers take, what is left. */
export interface Room {
  /** MiB the node offers servers (its size plus the overallocation); null when the check is off (-1). */
  limit: number | null;
  used: number;
  /** MiB left; null when the check is off. */
  free: number | null;
}

export interface NodeCapacity {
  memory: Room;
  disk: Room;
  servers: number;
  /** Why a server cannot go there now, or null when it can. */
  blocked: 'maintenance' | 'noMemory' | 'noDisk' | null;
}

const room = (size: number, overallocate: number, used: number): Room => {
  if (overallocate < 0) {
    return { limit: null, used, free: null };
  }
  const limit = Math.floor(size * (1 + overallocate / 100));
  return { limit, used, free: limit - used };
};

/**
 * What a node has room for, as Pterodactyl weighs it: its memory and disk grown by their overallocation
 * percentage (-1 = not checked), less the limits of the servers already on it. A node in maintenance,
 * or with no memory or disk left, takes no new server.
 */
export const nodeCapacity = (node: AdminNode, usage: NodeUsage | undefined): NodeCapacity => {
  const memory = room(node.memory, node.memoryOverallocate, usage?.memory ?? 0);
  const disk = room(node.disk, node.diskOverallocate, usage?.disk ?? 0);
  const blocked = node.maintenanceMode ? 'maintenance' : memory.free !== null && memory.free <= 0 ? 'noMemory' : disk.free !== null && disk.free <= 0 ? 'noDisk' : null;
  return { memory, disk, servers: usage?.servers ?? 0, blocked };
};

/**
 * Whether a limit fits what is left (0 = unlimited always fits, as does a resource that is not checked);
 * `current` is what the server already holds there, when it is being resized.
 */
export const fits = (wanted: number, free: number | null, current = 0): boolean => wanted === 0 || free === null || wanted - current <= free;
