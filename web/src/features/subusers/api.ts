import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { inCatalogue } from '@/features/subusers/permission-groups';

/** SubuserResponseDto of `GET /api/client/servers/{server}/users`. */
export interface Subuser {
  id: string;
  uuid: string;
  username: string;
  email: string;
  twoFactorEnabled: boolean;
  permissions: string[];
  createdAt: string;
}

const keys = { list: (server: string) => ['subusers', server] as const };
const P = '/api/client/servers/{server}/users' as const;
const U = '/api/client/servers/{server}/users/{user}' as const;

export const subusersQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<Subuser[]> => {
      const { data } = await api.GET(P, { params: { path: { server } } } as never);
      return (data as unknown as { data: Subuser[] }).data;
    },
  });

/** Whether the new subuser was e-mailed (an invitation, or a notice to an existing account), and if not why. */
export type SubuserEmail = components['schemas']['SubuserEmailDto'];

export const useSaveSubuser = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    /** Adding answers what became of the e-mail to the new subuser; editing answers nothing. */
    mutationFn: async (input: { userId?: string; email?: string; permissions: string[] }): Promise<SubuserEmail | null> => {
      if (input.userId) {
        await api.POST(U, { params: { path: { server, user: input.userId } }, body: { permissions: input.permissions } } as never);
        return null;
      }
      const { data } = await api.POST(P, { params: { path: { server } }, body: { email: input.email ?? '', permissions: inCatalogue(input.permissions) } });
      return data?.meta.email ?? null;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }),
  });
};

export const useRemoveSubuser = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => {
      await api.DELETE(U, { params: { path: { server, user: userId } } } as never);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }),
  });
};
