import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';
import type { ConsoleCredentials } from '@/features/console/console-client';

export type PowerAction = 'start' | 'stop' | 'restart' | 'kill';

/** `GET /api/client/servers/{id}/websocket`: a console token and the node's socket URL (or why not). Throws ApiError. */
export const fetchConsoleCredentials = async (serverId: string): Promise<ConsoleCredentials> =>
  (await api.GET('/api/client/servers/{server}/websocket', { params: { path: { server: serverId } } })).data!.data;

/** `POST /api/client/servers/{id}/power`: answers with an error (and writes the activity log), unlike the socket's `set state`. */
export const usePowerAction = (serverId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: PowerAction): Promise<void> => {
      await api.POST('/api/client/servers/{server}/power', { params: { path: { server: serverId } }, body: { action } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['servers'] }),
  });
};
