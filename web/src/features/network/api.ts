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

/** The server's address (console header, dashboard) follows the primary allocation, so its details are read again too. */
export const useMakePrimary = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (allocation: string) => {
      await api.POST(`${A}/primary`, { params: { path: { server, allocation } } } as never);
    },
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: keys.list(server) }), qc.invalidateQueries({ queryKey: serverQuery(server).queryKey })]),
  });
};
