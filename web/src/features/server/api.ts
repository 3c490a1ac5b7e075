import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

// The client server details (docs/api.md, ServerDetailsDto); the generated schema does not type
// this response yet (its controller declares no response DTO), so the shape is written here.
interface ServerAllocation {
  ip: string;
  port: number;
  description: string;
}

export interface ServerDetails {
  id: string;
  uuid: string;
  identifier: string;
  name: string;
  description: string | null;
  /** The daemon's state (offline, starting, running, stopping) or the panel's own (installing, install_failed, suspended...). */
  status: string;
  suspended: boolean;
  node: { id: string; name: string };
  limits: { memory: number; disk: number; cpu: number; swap: number | null; io: number };
  createdAt: string;
  allocations: { primary: ServerAllocation | null; additional: ServerAllocation[] };
  /** Databases, allocations and backups the server may have (databases: 0 = no limit). */
  featureLimits: { databases: number; allocations: number; backups: number };
  owner: { id: string; username: string };
  /** The caller's panel permissions on this server (owners and admins: all of them). */
  permissions: string[];
  /** Where the caller signs in over SFTP: the node's address and SFTP port, `<caller's username>.<identifier>`. */
  sftp: { host: string; port: number; username: string };
}

const serverKeys = {
  all: ['servers'] as const,
  detail: (id: string) => ['servers', id] as const,
};

/** `GET /api/client/servers/{id}`: loaded by the server layout, read by every tab. */
export const serverQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.detail(id),
    queryFn: async (): Promise<ServerDetails> => {
      const { data } = await api.GET('/api/client/servers/{server}', { params: { path: { server: id } } } as never);
      return (data as unknown as { data: ServerDetails }).data;
    },
  });
