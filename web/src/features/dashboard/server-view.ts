import type { components } from '@/api/schema';
import { serverMemoryLimit } from '@/lib/format';
import type { LiveResources, LiveServerState } from '@/lib/live-status';

type ServerListItem = components['schemas']['ServerDetailsDto'];

/**
 * A server of `GET /api/client/servers`, as far as the dashboard reads it. `status` is the panel's own
 * state (installing, install_failed, suspended, restoring_backup) or `unknown`; limits are memory and disk
 * in MiB, CPU in percent of one core, 0 meaning no limit.
 */
export type ListedServer = Pick<ServerListItem, 'id' | 'uuid' | 'identifier' | 'name' | 'description' | 'status' | 'suspended' | 'node' | 'owner'> & {
  limits: Pick<ServerListItem['limits'], 'memory' | 'disk' | 'cpu'>;
  allocations: { primary: Pick<components['schemas']['AllocationViewDto'], 'ip' | 'port'> | null };
};

export type StatusTone = 'running' | 'transition' | 'offline' | 'unreachable' | 'unknown';

/** What a card shows as its status: a key of `dashboard.status.*` and the dot's tone. */
export interface StatusView {
  key: 'running' | 'starting' | 'stopping' | 'offline' | 'missing' | 'unreachable' | 'connecting' | 'installing' | 'installFailed' | 'suspended' | 'restoring' | 'unknown';
  tone: StatusTone;
}

/** The badges a card carries for the panel's own states. */
type Badge = 'installing' | 'installFailed' | 'suspended' | 'restoring';

export const badgesOf = (server: Pick<ListedServer, 'status' | 'suspended'>, live?: LiveServerState): Badge[] => {
  const badges: Badge[] = [];
  if (server.status === 'installing') {badges.push('installing');}
  if (server.status === 'install_failed') {badges.push('installFailed');}
  if (server.status === 'restoring_backup') {badges.push('restoring');}
  if (server.suspended || server.status === 'suspended' || (live?.kind === 'live' && live.isSuspended)) {badges.push('suspended');}
  return badges;
};

const LIVE_KEYS: Record<string, StatusView> = {
  running: { key: 'running', tone: 'running' },
  starting: { key: 'starting', tone: 'transition' },
  stopping: { key: 'stopping', tone: 'transition' },
  offline: { key: 'offline', tone: 'offline' },
  missing: { key: 'missing', tone: 'unknown' },
};

/**
 * The status a card shows. The node's word wins when there is one (a node that does not answer is
 * "node unreachable", for its servers only); before the first frame, the panel's own state of the
 * list, else "connecting".
 */
export const statusOf = (server: Pick<ListedServer, 'status' | 'suspended'>, live: LiveServerState | undefined, connected: boolean): StatusView => {
  if (live?.kind === 'unreachable') {
    return { key: 'unreachable', tone: 'unreachable' };
  }
  if (server.status === 'installing') {return { key: 'installing', tone: 'transition' };}
  if (server.status === 'install_failed') {return { key: 'installFailed', tone: 'unreachable' };}
  if (server.status === 'restoring_backup') {return { key: 'restoring', tone: 'transition' };}
  if (live?.kind === 'live') {
    return LIVE_KEYS[live.currentState] ?? { key: 'unknown', tone: 'unknown' };
  }
  if (server.suspended || server.status === 'suspended') {return { key: 'suspended', tone: 'offline' };}
  return connected ? { key: 'connecting', tone: 'unknown' } : { key: 'unknown', tone: 'unknown' };
};

const MIB = 1024 * 1024;

export interface UsageBar {
  key: 'cpu' | 'memory' | 'disk';
  /** Bytes for memory and disk, percent of one core for CPU. */
  used: number;
  /** The limit in the same unit, or null when there is none. */
  limit: number | null;
  /** 0–100 of the limit for the bar; null without a limit. */
  percent: number | null;
}

const bar = (key: UsageBar['key'], used: number, limit: number | null): UsageBar => ({
  key,
  used,
  limit,
  percent: limit && limit > 0 ? Math.min(100, Math.max(0, (used / limit) * 100)) : null,
});

/** CPU, memory and disk use against the server's limits (the node's memory limit when the panel sets none). */
export const usageBars = (limits: ListedServer['limits'], resources: LiveResources): UsageBar[] => [
  bar('cpu', resources.cpuAbsolute, limits.cpu > 0 ? limits.cpu : null),
  bar('memory', resources.memoryBytes, serverMemoryLimit(limits.memory, resources.memoryLimitBytes)),
  bar('disk', resources.diskBytes, limits.disk > 0 ? limits.disk * MIB : null),
];

/** `ip:port` of the primary allocation, or null. */
export const addressOf = (server: Pick<ListedServer, 'allocations'>): string | null => {
  const primary = server.allocations.primary;
  if (!primary) {return null;}
  return primary.ip.includes(':') ? `[${primary.ip}]:${primary.port}` : `${primary.ip}:${primary.port}`;
};

/**
 * The status changes worth announcing: servers whose status key differs from the one seen before.
 * Servers seen for the first time, and first statuses after the wait for a frame, are not announced
 * (the page just loaded them).
 */
export const statusChanges = (previous: ReadonlyMap<string, StatusView['key']>, next: ReadonlyMap<string, StatusView['key']>): { uuid: string; key: StatusView['key'] }[] =>
  [...next]
    .filter(([uuid, key]) => {
      const before = previous.get(uuid);
      return before !== undefined && before !== key && before !== 'connecting' && key !== 'connecting';
    })
    .map(([uuid, key]) => ({ uuid, key }));
