import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { inCatalogue } from '@/features/subusers/permission-groups';

export type Subuser = components['schemas']['SubuserResponseDto'];

const keys = { list: (server: string) => ['subusers', server] as const };

export const subusersQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Subuser[]> => (await api.GET('/api/client/servers/{server}/users', { params: { path: { server } } })).data!.data,
  });

/** Whether the new subuser was e-mailed (an invitation, or a notice to an existing account), and if not why. */
export type SubuserEmail = components['schemas']['SubuserEmailDto'];

export const useSaveSubuser = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    /** Adding answers what became of the e-mail to the new subuser; editing answers nothing. */
    mutationFn: async (input: { userId?: string; email?: string; permissions: string[] }): Promise<SubuserEmail | null> => {
      if (input.userId) {
        await api.POST('/api/client/servers/{server}/users/{user}', { params: { path: { server, user: input.userId } }, body: { permissions: inCatalogue(input.permissions) } });
        return null;
      }
      const { data } = await api.POST('/api/client/servers/{server}/users', { params: { path: { server } }, body: { email: input.email ?? '', permissions: inCatalogue(input.permissions) } });
      return data?.meta.email ?? null;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }),
  });
};

export const useRemoveSubuser = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => {
      await api.DELETE('/api/client/servers/{server}/users/{user}', { params: { path: { server, user: userId } } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }),
  });
};
