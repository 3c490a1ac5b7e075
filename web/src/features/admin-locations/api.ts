import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type Location = components['schemas']['LocationResponseDto'];

const keys = { list: ['admin-locations'] as const };

export const locationsQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<Location[]> => (await api.GET('/api/admin/locations', { params: { query: { perPage: 100 } } })).data!.data,
  });

export const useSaveLocation = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: { short: string; long: string | null } }): Promise<Location> =>
      id
        ? (await api.PATCH('/api/admin/locations/{id}', { params: { path: { id } }, body })).data!.data
        : (await api.POST('/api/admin/locations', { body })).data!.data,
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

export const useDeleteLocation = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/admin/locations/{id}', { params: { path: { id } } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};
