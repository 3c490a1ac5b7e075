import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';

export type BackupHost = components['schemas']['BackupHostResponseDto'];
type BackupHostBody = components['schemas']['CreateBackupHostDto'];
export type BackupHostTest = components['schemas']['BackupHostTestDto'];

const keys = { list: ['admin-backup-hosts'] as const };

export const backupHostsQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<BackupHost[]> => (await api.GET('/api/admin/backup-hosts', { params: { query: { perPage: 100 } } })).data!.data,
  });

export const useSaveBackupHost = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: Partial<BackupHostBody> }): Promise<BackupHost> =>
      id
        ? (await api.PATCH('/api/admin/backup-hosts/{id}', { params: { path: { id } }, body })).data!.data
        : (await api.POST('/api/admin/backup-hosts', { body: body as BackupHostBody })).data!.data,
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

export const useDeleteBackupHost = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/admin/backup-hosts/{id}', { params: { path: { id } } });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.list }),
  });
};

/** Writes and deletes a small object with the stored settings: `ok`, or S3's error. */
export const useTestBackupHost = () =>
  useMutation({
    mutationFn: async (id: string): Promise<BackupHostTest> => (await api.POST('/api/admin/backup-hosts/{id}/test', { params: { path: { id } } })).data!.data,
  });
