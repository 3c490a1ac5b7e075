import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { serverQuery } from '@/features/server/api';
import { api } from '@/lib/api/client';

export type Allocation = components['schemas']['NetworkAllocationDto'];

const keys = { list: (server: string) => ['network', server] as const };
const P = '/api/client/servers/{server}/network/allocations' as const;
const A = '/api/client/servers/{server}/network/allocations/{allocation}' as const;

/** The server's allocations, in address order, the primary one marked (`isDefault`). */
export const allocationsQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Allocation[]> => {
      const { data } = await api.GET(P, { params: { path: { server } } } as never);
      return (data as unknown as { data: Allocation[] }).data;
    },
  });

export const useSetNotes = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { allocation: string; notes: string | null }) => {
      await api.POST(A, { params: { path: { server, allocation: input.allocation } }, body: { notes: input.notes } } as never);
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
    await api.POST(`${A}/primary`, { params: { path: { server, allocation } } } as never);
  });

/** A free allocation of the node, within the server's limit: the one the panel picked. */
export const useAddAllocation = (server: string) =>
  useAllocationChange(server, async (): Promise<Allocation> => {
    const { data } = await api.POST(P, { params: { path: { server } } } as never);
    return (data as unknown as { data: Allocation }).data;
  });

export const useRemoveAllocation = (server: string) =>
  useAllocationChange(server, async (allocation: string): Promise<void> => {
    await api.DELETE(A, { params: { path: { server, allocation } } } as never);
  });
