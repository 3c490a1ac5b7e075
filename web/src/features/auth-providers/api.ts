import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type AuthProvider = components['schemas']['AuthProviderDto'];
export type CreateAuthProviderBody = components['schemas']['CreateAuthProviderDto'];
export type UpdateAuthProviderBody = components['schemas']['UpdateAuthProviderDto'];
export type AuthProviderType = AuthProvider['type'];

export const AUTH_PROVIDER_TYPES: readonly AuthProviderType[] = ['oidc', 'google', 'github', 'discord'];

const keys = { all: ['auth-providers'] as const };

export const authProvidersQuery = queryOptions({
  queryKey: keys.all,
  queryFn: async (): Promise<AuthProvider[]> => (await api.GET('/api/admin/auth-providers')).data!.data,
});

const useProviderMutation = <T, R>(fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }) });
};

/** Creates (no `id`) or updates. */
export const useSaveAuthProvider = () =>
  useProviderMutation(async ({ id, body }: { id?: string; body: CreateAuthProviderBody | UpdateAuthProviderBody }): Promise<AuthProvider> =>
    id === undefined
      ? (await api.POST('/api/admin/auth-providers', { body: body as CreateAuthProviderBody })).data!.data
      : (await api.PATCH('/api/admin/auth-providers/{id}', { params: { path: { id } }, body })).data!.data,
  );

export const useDeleteAuthProvider = () =>
  useProviderMutation(async (id: string) => {
    await api.DELETE('/api/admin/auth-providers/{id}', { params: { path: { id } } });
  });
