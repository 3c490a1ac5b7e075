import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { ApiError } from '@/lib/api/api-error';
import { api } from '@/lib/api/client';

export type AdminNode = components['schemas']['NodeResponseDto'];
export type NodeBody = components['schemas']['CreateNodeDto'];
type DaemonSystem = components['schemas']['DaemonSystemInfoDto'];
export type Allocation = components['schemas']['AllocationResponseDto'];
type Location = components['schemas']['LocationResponseDto'];
type PushOutcome = components['schemas']['PushOutcomeDto'];

const ALLOCATIONS_PER_PAGE = 100;

const keys = {
  all: ['admin-nodes'] as const,
  list: ['admin-nodes', 'list'] as const,
  one: (id: string) => ['admin-nodes', 'one', id] as const,
  system: (id: string) => ['admin-nodes', 'system', id] as const,
  allocations: (id: string, page: number) => ['admin-nodes', 'allocations', id, page] as const,
  locations: ['admin-nodes', 'locations'] as const,
};

export const nodesQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<AdminNode[]> => (await api.GET('/api/admin/nodes', { params: { query: { perPage: 100 } } })).data!.data,
  });

export const nodeQuery = (id: string) =>
  queryOptions({
    queryKey: keys.one(id),
    queryFn: async (): Promise<AdminNode> => (await api.GET('/api/admin/nodes/{id}', { params: { path: { id } } })).data!.data,
  });

/** The daemon's own answer; a node that is down fails fast (502/504) and is not asked again at once. */
export const systemQuery = (id: string) =>
  queryOptions({
    queryKey: keys.system(id),
    queryFn: async (): Promise<DaemonSystem> => (await api.GET('/api/admin/nodes/{id}/system', { params: { path: { id } } })).data!.data,
    retry: false,
    staleTime: 15_000,
  });

/** The locations a node can be put in (the first 100, which is more than a panel has). */
export const locationsQuery = () =>
  queryOptions({
    queryKey: keys.locations,
    queryFn: async (): Promise<Location[]> => (await api.GET('/api/admin/locations', { params: { query: { perPage: 100 } } })).data!.data,
  });

export const allocationsQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: keys.allocations(id, page),
    queryFn: async () => {
      const { data } = await api.GET('/api/admin/nodes/{id}/allocations', { params: { path: { id }, query: { page, perPage: ALLOCATIONS_PER_PAGE } } });
      return { allocations: data!.data, total: data!.meta.pagination.total, totalPages: data!.meta.pagination.totalPages };
    },
    placeholderData: keepPreviousData,
  });

export const useCreateNode = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: NodeBody): Promise<AdminNode> => (await api.POST('/api/admin/nodes', { body })).data!.data,
    onSuccess: (node) => {
      qc.setQueryData(keys.one(node.id), node);
      void qc.invalidateQueries({ queryKey: keys.list });
    },
  });
};

/** Saves; `meta` says whether the daemon took the new configuration. */
export const useUpdateNode = (id: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: Partial<NodeBody>): Promise<{ node: AdminNode; meta: PushOutcome }> => {
      const { data } = await api.PATCH('/api/admin/nodes/{id}', { params: { path: { id } }, body });
      return { node: data!.data, meta: data!.meta };
    },
    onSuccess: ({ node }) => {
      qc.setQueryData(keys.one(id), node);
      void qc.invalidateQueries({ queryKey: keys.list });
      void qc.invalidateQueries({ queryKey: keys.system(id) });
    },
  });
};

export const useResetToken = (id: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<{ node: AdminNode; meta: PushOutcome }> => {
      const { data } = await api.POST('/api/admin/nodes/{id}/reset-token', { params: { path: { id } } });
      return { node: data!.data, meta: data!.meta };
    },
    onSuccess: ({ node }) => qc.setQueryData(keys.one(id), node),
  });
};

export const useDeleteNode = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/admin/nodes/{id}', { params: { path: { id } } });
    },
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: keys.one(id) });
      void qc.invalidateQueries({ queryKey: keys.list });
    },
  });
};

export const useCreateAllocations = (id: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { ip: string; ports: string[]; alias?: string | null }) => {
      await api.POST('/api/admin/nodes/{id}/allocations', { params: { path: { id } }, body });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-nodes', 'allocations', id] }),
  });
};

/** Deletes each in turn; answers how many went and the first error, if any (the rest are still tried). */
export const useDeleteAllocations = (id: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (allocationIds: string[]): Promise<{ deleted: number; error?: unknown }> => {
      let deleted = 0;
      let error: unknown;
      for (const allocation of allocationIds) {
        try {
          await api.DELETE('/api/admin/nodes/{id}/allocations/{allocation}', { params: { path: { id, allocation } } });
          deleted += 1;
        } catch (e) {
          error ??= e;
        }
      }
      return { deleted, error };
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin-nodes', 'allocations', id] }),
  });
};

/** A key for reading the node's configuration: API keys only (a session is not enough), one day, `nodes.read` only. */
const mintConfigurationKey = async (name: string): Promise<{ key: string; identifier: string }> => {
  const { data } = await api.POST('/api/account/api-keys', { body: { name, expiresInDays: 1, permissions: ['nodes.read'] } });
  return { key: data!.data.key, identifier: data!.data.identifier };
};

/** A deploy key: shown once, inside the command that fetches config.yml on the node. */
export const useCreateDeployKey = (node: AdminNode) =>
  useMutation({
    mutationFn: async (): Promise<string> => (await mintConfigurationKey(`deploy ${node.name}`.slice(0, 100))).key,
  });

/** config.yml as text, read with a short-lived key that is deleted again right after. */
export const useDownloadConfiguration = (node: AdminNode) =>
  useMutation({
    mutationFn: async (): Promise<string> => {
      const { key, identifier } = await mintConfigurationKey(`config.yml ${node.name}`.slice(0, 100));
      try {
        const { data } = await api.GET('/api/admin/daemon/nodes/{id}/configuration', {
          params: { path: { id: node.id }, query: { format: 'yaml' } },
          headers: { Authorization: `Bearer ${key}` },
          parseAs: 'text',
        });
        return data!;
      } finally {
        await api.DELETE('/api/account/api-keys/{identifier}', { params: { path: { identifier } } }).catch(() => undefined);
      }
    },
  });

type Drain = components['schemas']['DrainDto'];
type StartDrainBody = components['schemas']['StartDrainDto'];

/** The node's running or last drain (null when it was never drained); polled every 2 s while it runs. */
export const drainQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin-nodes', 'drain', id],
    queryFn: async (): Promise<Drain | null> => {
      try {
        return (await api.GET('/api/admin/nodes/{id}/drain', { params: { path: { id } } })).data!.data;
      } catch (e) {
        if (e instanceof ApiError && e.code === 'DRAIN_NOT_FOUND') {
          return null;
        }
        throw e;
      }
    },
    refetchInterval: (query) => (query.state.data?.state === 'running' || (query.state.data?.running ?? 0) > 0 ? 2000 : false),
  });

export const useDrain = (id: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: StartDrainBody | null): Promise<Drain> =>
      body === null
        ? (await api.DELETE('/api/admin/nodes/{id}/drain', { params: { path: { id } } })).data!.data
        : (await api.POST('/api/admin/nodes/{id}/drain', { params: { path: { id } }, body })).data!.data,
    onSuccess: (drain) => qc.setQueryData(['admin-nodes', 'drain', id], drain),
  });
};
