import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type ApplicationKey = components['schemas']['PterodactylKeyResponseDto'];
export type CreatedApplicationKey = components['schemas']['CreatedPterodactylKeyResponseDto'];
type Permissions = NonNullable<components['schemas']['CreateApplicationKeyDto']['permissions']>;

const keys = { list: ['admin-application-keys'] as const };

export const applicationKeysQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<ApplicationKey[]> => (await api.GET('/api/admin/pterodactyl-keys')).data!.data,
    // A credentials route with a small rate-limit bucket, as the account's keys.
    refetchOnWindowFocus: false,
  });

/** An application key (`ptla_…`); the answer carries the key, once. */
export const useCreateApplicationKey = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { description: string; allowedIps: string[]; permissions: Permissions }): Promise<CreatedApplicationKey> =>
      (await api.POST('/api/admin/pterodactyl-keys', { body })).data!.data,
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

export const useDeleteApplicationKey = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (identifier: string): Promise<void> => {
      await api.DELETE('/api/admin/pterodactyl-keys/{identifier}', { params: { path: { identifier } } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};
