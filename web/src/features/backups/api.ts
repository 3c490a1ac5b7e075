import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** BackupResponseDto. */
export interface Backup {
  id: string;
  uuid: string;
  name: string;
  ignoredFiles: string[];
  checksum: string | null;
  bytes: number;
  isSuccessful: boolean;
  isLocked: boolean;
  status: 'in_progress' | 'successful' | 'failed';
  createdAt: string;
  completedAt: string | null;
}

interface BackupList {
  data: Backup[];
  meta: { backupCount: number; backupLimit: number | null; total?: number };
}

const keys = { list: (server: string) => ['backups', server] as const };
const P = '/api/client/servers/{server}/backups' as const;
const B = '/api/client/servers/{server}/backups/{backup}' as const;

/** How often the list is fetched again while a backup is in progress. */
const POLL_MS = 2000;

/**
 * The first page of backups (newest first, the default 50: more than any sensible limit). While one is in
 * progress the list polls itself, so its completion (size, checksum, status) shows without a reload.
 */
export const backupsQuery = (server: string) =>
  queryOptions({
    queryKey: keys.list(server),
    queryFn: async (): Promise<BackupList> => {
      const { data } = await api.GET(P, { params: { path: { server }} } as never);
      return data as unknown as BackupList;
    },
    refetchInterval: (query) => (query.state.data?.data.some((b) => b.status === 'in_progress') ? POLL_MS : false),
  });

const useBackupMutation = <T,>(server: string, fn: (input: T) => Promise<unknown>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.list(server) }) });
};

export const useCreateBackup = (server: string) =>
  useBackupMutation(server, (input: { name?: string; ignored?: string }) => api.POST(P, { params: { path: { server } }, body: input } as never));

export const useToggleLock = (server: string) =>
  useBackupMutation(server, (backup: string) => api.POST(`${B}/lock`, { params: { path: { server, backup } } } as never));

export const useRestoreBackup = (server: string) =>
  useBackupMutation(server, (input: { backup: string; truncate: boolean }) =>
    api.POST(`${B}/restore`, { params: { path: { server, backup: input.backup } }, body: { truncate: input.truncate } } as never),
  );

export const useDeleteBackup = (server: string) => useBackupMutation(server, (backup: string) => api.DELETE(B, { params: { path: { server, backup } } } as never));

/** A one-time signed URL on the node (15 minutes). */
export const backupDownloadUrl = async (server: string, backup: string): Promise<string> => {
  const { data } = await api.GET(`${B}/download`, { params: { path: { server, backup } } } as never);
  return (data as unknown as { data: { url: string } }).data.url;
};
