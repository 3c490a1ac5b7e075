import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type Startup = components['schemas']['StartupDto'];
export type StartupVariable = components['schemas']['StartupVariableDto'];

const keys = { startup: (server: string) => ['startup', server] as const };

/** `GET S/startup`: the command, the image and the variables the egg lets users see. */
export const startupQuery = (server: string) =>
  queryOptions({
    queryKey: keys.startup(server),
    queryFn: async (): Promise<Startup> => (await api.GET('/api/client/servers/{server}/startup', { params: { path: { server } } })).data!.data,
  });

/** `PUT S/startup/variable`: the panel checks the value against the variable's rules again (422 VALIDATION_FAILED). */
export const useSaveVariable = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { key: string; value: string }): Promise<StartupVariable> =>
      (await api.PUT('/api/client/servers/{server}/startup/variable', { params: { path: { server } }, body })).data!.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.startup(server), (old: Startup | undefined) =>
        old ? { ...old, variables: old.variables.map((v) => (v.envVariable === saved.envVariable ? saved : v)) } : old,
      );
      // The panel's filled-in command changes with the value.
      return queryClient.invalidateQueries({ queryKey: keys.startup(server) });
    },
  });
};

/** `PUT S/settings/docker-image`: another of the egg's images, used from the server's next start. */
export const useSetDockerImage = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (dockerImage: string): Promise<void> => {
      await api.PUT('/api/client/servers/{server}/settings/docker-image', { params: { path: { server } }, body: { dockerImage } });
    },
    onSuccess: (_void, dockerImage) => {
      queryClient.setQueryData(keys.startup(server), (old: Startup | undefined) => (old ? { ...old, dockerImage } : old));
    },
  });
};
