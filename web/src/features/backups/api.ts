import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type Backup = components['schemas']['BackupResponseDto'];

const keys = { list: (server: string) => ['backups', server] as const };

/** How often the list is fetched again while a backup is in progress. */
const POLL_MS = 2000;

/**
 * The first page of backups (newest first, the default 50: more than any sensible limit). While one is in
 * progress the list polls itself, so its completion (size, checksum, status) shows without a reload.
 */
export const backupsQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async () => (await api.GET('/api/client/servers/{server}/backups', { params: { path: { server } } })).data!,
    refetchInterval: (query) => (query.state.data?.data.some((b) => b.status === 'in_progress') ? POLL_MS : false),
  });

const useBackupMutation = <T,>(server: string, fn: (input: T) => Promise<unknown>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }) });
};

export const useCreateBackup = (server: string) =>
  useBackupMutation(server, (input: { name?: string; ignored?: string }) => api.POST('/api/client/servers/{server}/backups', { params: { path: { server } }, body: input }));

export const useToggleLock = (server: string) =>
  useBackupMutation(server, (backup: string) => api.POST('/api/client/servers/{server}/backups/{backup}/lock', { params: { path: { server, backup } } }));

export const useRestoreBackup = (server: string) =>
  useBackupMutation(server, (input: { backup: string; truncate: boolean }) =>
    api.POST('/api/client/servers/{server}/backups/{backup}/restore', { params: { path: { server, backup: input.backup } }, body: { truncate: input.truncate } }),
  );

export const useDeleteBackup = (server: string) =>
  useBackupMutation(server, (backup: string) => api.DELETE('/api/client/servers/{server}/backups/{backup}', { params: { path: { server, backup } } }));

/** A one-time signed URL on the node (15 minutes). */
export const backupDownloadUrl = async (server: string, backup: string): Promise<string> =>
  (await api.GET('/api/client/servers/{server}/backups/{backup}/download', { params: { path: { server, backup } } })).data!.data.url;
