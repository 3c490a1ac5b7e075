import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type ServerDatabase = components['schemas']['ServerDatabaseResponseDto'];

/** What the panel shows once, after a creation or a rotation: everything a client needs to connect. */
export type DatabaseCredentials = Omit<components['schemas']['CreatedServerDatabaseDto'], 'id'> & components['schemas']['DatabasePasswordMetaDto'];

const keys = { list: (server: string) => ['databases', server] as const };

/**
 * The server's databases (the first 100: more than any sensible limit) and `hostAvailable`: whether a
 * host could take a new database (false: no host for this server's node, or all full).
 */
export const databasesQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async () => (await api.GET('/api/client/servers/{server}/databases', { params: { path: { server }, query: { perPage: 100 } } })).data!,
  });

const useDatabaseMutation = <T, R>(server: string, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: keys.list(server) }) });
};

/** The password is in `meta` of this answer only. */
export const useCreateDatabase = (server: string) =>
  useDatabaseMutation(server, async (body: { name: string; remote: string }): Promise<DatabaseCredentials> => {
    const { data: made, meta } = (await api.POST('/api/client/servers/{server}/databases', { params: { path: { server } }, body })).data!;
    return { name: made.name, username: made.username, host: made.host, port: made.port, password: meta.password };
  });

/** The old password stops working at once; the new one is shown this once. */
export const useRotatePassword = (server: string) =>
  useDatabaseMutation(server, async (database: string): Promise<DatabaseCredentials> => {
    const { data: record, meta } = (await api.POST('/api/client/servers/{server}/databases/{database}/rotate-password', { params: { path: { server, database } } })).data!;
    return { name: record.name, username: record.username, host: record.host.hostname, port: record.host.port, password: meta.password };
  });

export const useDeleteDatabase = (server: string) =>
  useDatabaseMutation(server, async (database: string): Promise<void> => {
    await api.DELETE('/api/client/servers/{server}/databases/{database}', { params: { path: { server, database } } });
  });
