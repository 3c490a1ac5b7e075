import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileEntry } from '@/features/files/file-list';
import type { ServerDetails } from '@/features/server/api';
import { api } from '@/lib/api/client';

// The file routes of docs/api.md#files.

/** What the file manager needs of `GET /api/client/servers/{id}`; `uploadSizeMiB` is left out when it is not positive. */
type FilesServer = Pick<ServerDetails, 'id' | 'uuid' | 'identifier' | 'name' | 'permissions'> & { uploadSizeMiB?: number };

/** The `{server}` of a file route's path. */
const on = (server: string) => ({ path: { server } });

export const filesKeys = {
  server: (server: string) => ['files', server, 'server'] as const,
  dir: (server: string, directory: string) => ['files', server, 'list', directory] as const,
  lists: (server: string) => ['files', server, 'list'] as const,
  contents: (server: string, file: string) => ['files', server, 'contents', file] as const,
};

export const filesServerQuery = (server: string) =>
  queryOptions({
    queryKey: filesKeys.server(server),
    queryFn: async (): Promise<FilesServer> => {
      const { id, uuid, identifier, name, permissions, uploadSizeMiB } = (await api.GET('/api/client/servers/{server}', { params: on(server) })).data!.data;
      // Without a positive cap, uploads go without a pre-check and the panel's own limit answers.
      return { id, uuid, identifier, name, permissions, ...(uploadSizeMiB > 0 ? { uploadSizeMiB } : {}) };
    },
  });

export const can = (server: FilesServer | undefined, permission: string): boolean =>
  !!server && (server.permissions.includes('*') || server.permissions.includes(permission));

export const fileListQuery = (server: string, directory: string) =>
  queryOptions({
    queryKey: filesKeys.dir(server, directory),
    queryFn: async (): Promise<FileEntry[]> =>
      (await api.GET('/api/client/servers/{server}/files/list', { params: { ...on(server), query: { directory } } })).data!.data.entries,
  });

/** The text of a file; FILE_TOO_LARGE_TO_VIEW (an ApiError) when it is over the panel's edit limit. */
export const fileContentsQuery = (server: string, file: string) =>
  queryOptions({
    queryKey: filesKeys.contents(server, file),
    queryFn: async (): Promise<string> =>
      (await api.GET('/api/client/servers/{server}/files/contents', { params: { ...on(server), query: { file } }, parseAs: 'text' })).data!,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** A one-time download URL, fetched on click and never ahead (it works once). */
export const downloadUrl = async (server: string, file: string): Promise<string> =>
  (await api.GET('/api/client/servers/{server}/files/download', { params: { ...on(server), query: { file } } })).data!.data.url;

/** The file operations; those the panel answers with a file (copy, compress) or a pull id give it back. */
export const filesApi = {
  write: async (server: string, file: string, content: string): Promise<void> => {
    await api.POST('/api/client/servers/{server}/files/write', { params: on(server), body: { file, content } });
  },
  createFolder: async (server: string, root: string, name: string): Promise<void> => {
    await api.POST('/api/client/servers/{server}/files/create-folder', { params: on(server), body: { root, name } });
  },
  rename: async (server: string, root: string, files: { from: string; to: string }[]): Promise<void> => {
    await api.PUT('/api/client/servers/{server}/files/rename', { params: on(server), body: { root, files } });
  },
  copy: async (server: string, location: string): Promise<FileEntry> =>
    (await api.POST('/api/client/servers/{server}/files/copy', { params: on(server), body: { location } })).data!.data,
  delete: async (server: string, root: string, files: string[]): Promise<void> => {
    await api.POST('/api/client/servers/{server}/files/delete', { params: on(server), body: { root, files } });
  },
  chmod: async (server: string, root: string, files: { file: string; mode: string }[]): Promise<void> => {
    await api.POST('/api/client/servers/{server}/files/chmod', { params: on(server), body: { root, files } });
  },
  compress: async (server: string, root: string, files: string[]): Promise<FileEntry> =>
    (await api.POST('/api/client/servers/{server}/files/compress', { params: on(server), body: { root, files } })).data!.data,
  decompress: async (server: string, root: string, file: string): Promise<void> => {
    await api.POST('/api/client/servers/{server}/files/decompress', { params: on(server), body: { root, file } });
  },
  pull: async (server: string, url: string, directory: string): Promise<{ identifier: string }> =>
    (await api.POST('/api/client/servers/{server}/files/pull', { params: on(server), body: { url, directory } })).data!.data,
};

/** Saves a file and refreshes what shows it (its folder's listing, its cached text). */
export const useWriteFile = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, content }: { file: string; content: string }) => filesApi.write(server, file, content),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.lists(server) }),
  });
};
