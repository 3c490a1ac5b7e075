import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type Mount = components['schemas']['MountResponseDto'];
export type MountDetail = components['schemas']['MountDetailDto'];
type MountBody = components['schemas']['CreateMountDto'];
/** A mount on the admin server page: attached or not, and whether the server's egg and node are linked to it. */
type ServerMount = components['schemas']['AdminServerMountDto'];
type Choice = { id: string; name: string };

const keys = {
  all: ['admin-mounts'] as const,
  list: (search: string) => ['admin-mounts', 'list', search] as const,
  one: (id: string) => ['admin-mounts', 'mount', id] as const,
  eggs: ['admin-mounts', 'eggs'] as const,
  nodes: ['admin-mounts', 'nodes'] as const,
  server: (id: string) => ['admin-mounts', 'server', id] as const,
};

/** Every row of a paginated admin list (100 a page, at most 100 pages). */
const readAll = async <T,>(readPage: (query: { page: number; perPage: number }) => Promise<{ data?: { data: T[]; meta: { pagination: { totalPages: number } } | { cursor: unknown } } }>): Promise<T[]> => {
  const rows: T[] = [];
  for (let page = 1; page <= 100; page++) {
    const body = (await readPage({ page, perPage: 100 })).data!;
    rows.push(...body.data);
    if (page >= pageMeta(body.meta).pagination.totalPages) {
      break;
    }
  }
  return rows;
};

export const mountsQuery = (search: string) =>
  queryOptions({
    queryKey: keys.list(search),
    queryFn: () => readAll((query) => api.GET('/api/admin/mounts', { params: { query: { ...query, ...(search ? { search } : {}) } } })),
    placeholderData: keepPreviousData,
  });

export const mountQuery = (id: string) =>
  queryOptions({
    queryKey: keys.one(id),
    queryFn: async (): Promise<MountDetail> => (await api.GET('/api/admin/mounts/{id}', { params: { path: { id } } })).data!.data,
  });

/** The eggs and nodes a mount can be linked to. */
export const eggChoicesQuery = () =>
  queryOptions({
    queryKey: keys.eggs,
    queryFn: async (): Promise<Choice[]> => (await readAll((query) => api.GET('/api/admin/eggs', { params: { query } })))
      // Eggs of several nests share names (every nest may have its Paper): the nest tells them apart.
      .map((e) => ({ id: e.id, name: `${e.name} (${e.nestName})` })),
  });

export const nodeChoicesQuery = () =>
  queryOptions({
    queryKey: keys.nodes,
    queryFn: async (): Promise<Choice[]> => (await readAll((query) => api.GET('/api/admin/nodes', { params: { query } }))).map((n) => ({ id: n.id, name: n.name })),
  });

/** A mount change: the mount pages and every server's mounts are read again. */
const useMountMutation = <T, R>(fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }) });
};

export const useSaveMount = () =>
  useMountMutation(async ({ id, body }: { id?: string; body: Partial<MountBody> }): Promise<MountDetail> =>
    id
      ? (await api.PATCH('/api/admin/mounts/{id}', { params: { path: { id } }, body })).data!.data
      : (await api.POST('/api/admin/mounts', { body: body as MountBody })).data!.data,
  );

export const useDeleteMount = () =>
  useMountMutation(async (id: string) => {
    await api.DELETE('/api/admin/mounts/{id}', { params: { path: { id } } });
  });

export const useLinkEggs = (id: string) =>
  useMountMutation(async (eggIds: string[]) => (await api.POST('/api/admin/mounts/{id}/eggs', { params: { path: { id } }, body: { eggIds } })).data!.data);

export const useUnlinkEgg = (id: string) =>
  useMountMutation(async (eggId: string) => (await api.DELETE('/api/admin/mounts/{id}/eggs/{eggId}', { params: { path: { id, eggId } } })).data!.data);

export const useLinkNodes = (id: string) =>
  useMountMutation(async (nodeIds: string[]) => (await api.POST('/api/admin/mounts/{id}/nodes', { params: { path: { id } }, body: { nodeIds } })).data!.data);

export const useUnlinkNode = (id: string) =>
  useMountMutation(async (nodeId: string) => (await api.DELETE('/api/admin/mounts/{id}/nodes/{nodeId}', { params: { path: { id, nodeId } } })).data!.data);

/** The mounts attached to a server and those that could be. */
export const serverMountsQuery = (serverId: string) =>
  queryOptions({
    queryKey: keys.server(serverId),
    queryFn: async (): Promise<ServerMount[]> => (await api.GET('/api/admin/servers/{id}/mounts', { params: { path: { id: serverId } } })).data!.data,
  });

/** Attach (`attach: true`) or detach; the answer says whether the node was told to sync. */
export const useSetServerMount = (serverId: string) =>
  useMountMutation(async ({ mountId, attach }: { mountId: string; attach: boolean }) => {
    const params = { params: { path: { id: serverId, mountId } } };
    return (attach ? await api.PUT('/api/admin/servers/{id}/mounts/{mountId}', params) : await api.DELETE('/api/admin/servers/{id}/mounts/{mountId}', params)).data!;
  });
