import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { serverQuery } from '@/features/server/api';
import { api } from '@/lib/api/client';

/** `POST S/settings/rename`: the new name (and description) show in the server's header once the details are read again. */
export const useRenameServer = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; description: string | null }): Promise<void> => {
      await api.POST('/api/client/servers/{server}/settings/rename', { params: { path: { server } }, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverQuery(server).queryKey }),
  });
};

/** `POST S/settings/reinstall` (202): the panel marks the server installing and the node reinstalls it in the background. */
export const useReinstallServer = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<void> => {
      await api.POST('/api/client/servers/{server}/settings/reinstall', { params: { path: { server } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverQuery(server).queryKey }),
  });
};

type ServerMount = components['schemas']['ClientServerMountDto'];

/** `GET S/mounts`: the directories an administrator shared with the server (read-only list). */
export const serverMountsQuery = (server: string) =>
  queryOptions({
    queryKey: ['server', server, 'mounts'],
    queryFn: async (): Promise<ServerMount[]> => (await api.GET('/api/client/servers/{server}/mounts', { params: { path: { server } } })).data!.data,
  });
