import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { sessionQuery } from '@/features/auth/api';
import { api } from '@/lib/api/client';

export type AdminSettings = components['schemas']['AdminSettingsDto'];
export type TwoFactorPolicy = AdminSettings['twoFactorPolicy'];

const keys = { settings: ['admin', 'settings'] as const };

/** The settings administrators change at run time. */
export const adminSettingsQuery = queryOptions({
  queryKey: keys.settings,
  queryFn: async (): Promise<AdminSettings> => (await api.GET('/api/admin/settings')).data!.data,
});

export const useUpdateAdminSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: components['schemas']['UpdateAdminSettingsDto']): Promise<AdminSettings> =>
      (await api.PATCH('/api/admin/settings', { body })).data!.data,
    onSuccess: (settings) => {
      queryClient.setQueryData(keys.settings, settings);
      // The policy may now hold the administrator who changed it: the app layout reads that from the session.
      void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
    },
  });
};
