import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type ServerDatabase = components['schemas']['ServerDatabaseResponseDto'];

interface DatabaseList {
  data: ServerDatabase[];
  /** Whether a host could take a new database (false: no host for this server's node, or all full). */
  hostAvailable: boolean;
  meta: components['schemas']['PageMetaDto'];
}

/** What the panel shows once, after a creation or a rotation: everything a client needs to connect. */
export interface DatabaseCredentials {
  name: string;
  username: string;
  host: string;
  port: number;
  password: string;
}

const keys = { list: (server: string) => ['databases', server] as const };
const P = '/api/client/servers/{server}/databases' as const;
const D = '/api/client/servers/{server}/databases/{database}' as const;

/** The server's databases (the first 100: more than any sensible limit) and whether a host has room. */
export const databasesQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<DatabaseList> => {
      const { data } = await api.GET(P, { params: { path: { server }, query: { perPage: 100 } } } as never);
      return data as unknown as DatabaseList;
    },
  });

const useDatabaseMutation = <T, R>(server: string, fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: keys.list(server) }) });
};

/** The password is in `meta` of this answer only. */
export const useCreateDatabase = (server: string) =>
  useDatabaseMutation(server, async (body: { name: string; remote: string }): Promise<DatabaseCredentials> => {
    const { data } = await api.POST(P, { params: { path: { server } }, body } as never);
    const { data: made, meta } = data as unknown as { data: components['schemas']['CreatedServerDatabaseDto']; meta: { password: string } };
    return { name: made.name, username: made.username, host: made.host, port: made.port, password: meta.password };
  });

/** The old password stops working at once; the new one is shown this once. */
export const useRotatePassword = (server: string) =>
  useDatabaseMutation(server, async (database: string): Promise<DatabaseCredentials> => {
    const { data } = await api.POST(`${D}/rotate-password`, { params: { path: { server, database } } } as never);
    const { data: record, meta } = data as unknown as { data: ServerDatabase; meta: { password: string } };
    return { name: record.name, username: record.username, host: record.host.hostname, port: record.host.port, password: meta.password };
  });

export const useDeleteDatabase = (server: string) =>
  useDatabaseMutation(server, async (database: string): Promise<void> => {
    await api.DELETE(D, { params: { path: { server, database } } } as never);
  });
