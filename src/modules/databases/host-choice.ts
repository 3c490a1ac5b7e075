import type { HostWithCount } from 'src/modules/databases/databases.repository';

/** Whether the host may take one more database. */
export const hasRoom = ({ host, databases }: HostWithCount): boolean => host.maxDatabases === null || databases < host.maxDatabases;

const byLoad = (a: HostWithCount, b: HostWithCount): number => a.databases - b.databases || Number(a.host.id) - Number(b.host.id);

/**
 * The hosts a new database of a server on `nodeId` may go to, best first: hosts
 * linked to that node, else global hosts; fewest databases first; full hosts never. When every
 * linked host is full the global hosts are next, as they are for a node with no host of its own.
 */
export const rankHosts = (hosts: HostWithCount[], nodeId: string): HostWithCount[] => {
  const open = hosts.filter(hasRoom);
  const linked = open.filter((h) => h.host.nodeId === nodeId).sort(byLoad);
  const global = open.filter((h) => h.host.nodeId === null).sort(byLoad);
  return [...linked, ...global];
};
