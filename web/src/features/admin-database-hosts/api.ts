import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type DatabaseHost = components['schemas']['DatabaseHostResponseDto'];
type DatabaseHostBody = components['schemas']['CreateDatabaseHostDto'];
export type HostTest = components['schemas']['DatabaseHostTestDto'];
type Node = components['schemas']['NodeResponseDto'];

const keys = { list: ['admin-database-hosts'] as const, nodes: ['admin-database-hosts', 'nodes'] as const };

export const hostsQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<DatabaseHost[]> => (await api.GET('/api/admin/database-hosts', { params: { query: { perPage: 100 } } })).data!.data,
  });

/** The nodes a host can be linked to, by id → name. */
export const nodeNamesQuery = () =>
  queryOptions({
    queryKey: keys.nodes,
    queryFn: async (): Promise<Pick<Node, 'id' | 'name'>[]> =>
      (await api.GET('/api/admin/nodes', { params: { query: { perPage: 100 } } })).data!.data.map((n) => ({ id: n.id, name: n.name })),
  });

export const useSaveHost = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: Partial<DatabaseHostBody> }): Promise<DatabaseHost> =>
      id
        ? (await api.PATCH('/api/admin/database-hosts/{id}', { params: { path: { id } }, body })).data!.data
        : (await api.POST('/api/admin/database-hosts', { body: body as DatabaseHostBody })).data!.data,
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

export const useDeleteHost = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/admin/database-hosts/{id}', { params: { path: { id } } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

/** Signs in to the host with the stored account: `connected` and the version, or why not. */
export const useTestHost = () =>
  useMutation({
    mutationFn: async (id: string): Promise<HostTest> => (await api.POST('/api/admin/database-hosts/{id}/test', { params: { path: { id } } })).data!.data,
  });
