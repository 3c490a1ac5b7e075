import { queryOptions } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

/**
 * The client server details (docs/api.md). `status` is the daemon's state (offline, starting, running,
 * stopping) or the panel's own (installing, install_failed, suspended...); `permissions` are the caller's
 * on this server (owners and admins: all of them); `sftp` is where the caller signs in over SFTP.
 */
export type ServerDetails = components['schemas']['ClientServerDetailsDto'];

const serverKeys = {
  all: ['servers'] as const,
  detail: (id: string) => ['servers', id] as const,
};

/** `GET /api/client/servers/{id}`: loaded by the server layout, read by every tab. */
export const serverQuery = (id: string) =>
  queryOptions({
    queryKey: serverKeys.detail(id),
    queryFn: async (): Promise<ServerDetails> => (await api.GET('/api/client/servers/{server}', { params: { path: { server: id } } })).data!.data,
    // While it moves to another node the page follows the transfer to its end.
    refetchInterval: (query) => (query.state.data?.transferring ? 5000 : false),
  });
