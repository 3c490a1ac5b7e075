import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { serverQuery } from '@/features/server/api';
import { api } from '@/lib/api/client';

export type Allocation = components['schemas']['NetworkAllocationDto'];

const keys = { list: (server: string) => ['network', server] as const };

/** The server's allocations, in address order, the primary one marked (`isDefault`). */
export const allocationsQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Allocation[]> => (await api.GET('/api/client/servers/{server}/network/allocations', { params: { path: { server } } })).data!.data,
  });

export const useSetNotes = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { allocation: string; notes: string | null }) => {
      await api.POST('/api/client/servers/{server}/network/allocations/{allocation}', {
        params: { path: { server, allocation: input.allocation } },
        body: { notes: input.notes },
      });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }),
  });
};

/** A change of the server's addresses: its details (console header, dashboard) are read again too. */
const useAllocationChange = <T, R>(server: string, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: keys.list(server) }), qc.invalidateQueries({ queryKey: serverQuery(server).queryKey })]),
  });
};

export const useMakePrimary = (server: string) =>
  useAllocationChange(server, async (allocation: string): Promise<void> => {
    await api.POST('/api/client/servers/{server}/network/allocations/{allocation}/primary', { params: { path: { server, allocation } } });
  });

/** A free allocation of the node, within the server's limit: the one the panel picked. */
export const useAddAllocation = (server: string) =>
  useAllocationChange(server, async (): Promise<Allocation> => (await api.POST('/api/client/servers/{server}/network/allocations', { params: { path: { server } } })).data!.data);

export const useRemoveAllocation = (server: string) =>
  useAllocationChange(server, async (allocation: string): Promise<void> => {
    await api.DELETE('/api/client/servers/{server}/network/allocations/{allocation}', { params: { path: { server, allocation } } });
  });
