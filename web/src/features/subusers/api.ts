import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

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

export const useSaveSubuser = (server: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { userId?: string; email?: string; permissions: string[] }) => {
      if (input.userId) {
        await api.POST(U, { params: { path: { server, user: input.userId } }, body: { permissions: input.permissions } } as never);
      } else {
        await api.POST(P, { params: { path: { server } }, body: { email: input.email, permissions: input.permissions } } as never);
      }
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
