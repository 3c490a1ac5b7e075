import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileEntry } from '@/features/files/file-list';
import { api } from '@/lib/api/client';

// The file routes of docs/api.md#files. Their responses are not in the generated schema yet (no
// response DTOs), so the shapes are written here; paths are cast for the same reason.

/** What the file manager needs of `GET /api/client/servers/{id}`. */
interface FilesServer {
  id: string;
  uuid: string;
  identifier?: string;
  name: string;
  permissions: string[];
  /** The node's upload cap in MiB (the details' uploadSizeMiB); undefined when it is missing or not positive. */
  uploadSizeMiB?: number;
}

const S = (server: string) => `/api/client/servers/${encodeURIComponent(server)}`;
type AnyPath = never;

const get = async <T>(path: string, query?: Record<string, string>): Promise<T> => {
  const { data } = await api.GET(path as AnyPath, { params: { query } } as never);
  return (data as unknown as { data: T }).data;
};

const post = async <T>(path: string, body: unknown, method: 'POST' | 'PUT' = 'POST'): Promise<T | undefined> => {
  const call = method === 'POST' ? api.POST : api.PUT;
  const { data } = await call(path as AnyPath, { body } as never);
  return (data as { data?: T } | undefined)?.data;
};

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
      const raw = await get<Record<string, unknown>>(S(server));
      const upload = raw.uploadSizeMiB;
      return {
        id: String(raw.id),
        uuid: String(raw.uuid),
        identifier: typeof raw.identifier === 'string' ? raw.identifier : undefined,
        name: String(raw.name),
        permissions: Array.isArray(raw.permissions) ? raw.permissions.filter((p): p is string => typeof p === 'string') : [],
        // Without it (an older panel), uploads go without a pre-check and the panel's own limit answers.
        uploadSizeMiB: typeof upload === 'number' && upload > 0 ? upload : undefined,
      };
    },
  });

export const can = (server: FilesServer | undefined, permission: string): boolean =>
  !!server && (server.permissions.includes('*') || server.permissions.includes(permission));

export const fileListQuery = (server: string, directory: string) =>
  queryOptions({
    queryKey: filesKeys.dir(server, directory),
    queryFn: async (): Promise<FileEntry[]> => (await get<{ directory: string; entries: FileEntry[] }>(`${S(server)}/files/list`, { directory })).entries,
  });

/** The text of a file; FILE_TOO_LARGE_TO_VIEW (an ApiError) when it is over the panel's edit limit. */
export const fileContentsQuery = (server: string, file: string) =>
  queryOptions({
    queryKey: filesKeys.contents(server, file),
    queryFn: async (): Promise<string> => {
      const { data } = await api.GET(`${S(server)}/files/contents` as AnyPath, { params: { query: { file } }, parseAs: 'text' } as never);
      return data as unknown as string;
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** A one-time download URL, fetched on click and never ahead (it works once). */
export const downloadUrl = async (server: string, file: string): Promise<string> => (await get<{ url: string }>(`${S(server)}/files/download`, { file })).url;

export const filesApi = {
  write: (server: string, file: string, content: string) => post(`${S(server)}/files/write`, { file, content }),
  createFolder: (server: string, root: string, name: string) => post(`${S(server)}/files/create-folder`, { root, name }),
  rename: (server: string, root: string, files: { from: string; to: string }[]) => post(`${S(server)}/files/rename`, { root, files }, 'PUT'),
  copy: (server: string, location: string) => post<FileEntry>(`${S(server)}/files/copy`, { location }),
  delete: (server: string, root: string, files: string[]) => post(`${S(server)}/files/delete`, { root, files }),
  chmod: (server: string, root: string, files: { file: string; mode: string }[]) => post(`${S(server)}/files/chmod`, { root, files }),
  compress: (server: string, root: string, files: string[]) => post<FileEntry>(`${S(server)}/files/compress`, { root, files }),
  decompress: (server: string, root: string, file: string) => post(`${S(server)}/files/decompress`, { root, file }),
  pull: (server: string, url: string, directory: string) => post<{ identifier: string }>(`${S(server)}/files/pull`, { url, directory }),
};

/** Saves a file and refreshes what shows it (its folder's listing, its cached text). */
export const useWriteFile = (server: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, content }: { file: string; content: string }) => filesApi.write(server, file, content),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKeys.lists(server) }),
  });
};
