import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { ApiError } from '@/lib/api/api-error';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type AdminServer = components['schemas']['AdminServerDto'];
/** A node, as far as the node step weighs it. */
export type AdminNode = Pick<components['schemas']['NodeResponseDto'], 'id' | 'name' | 'fqdn' | 'maintenanceMode' | 'memory' | 'memoryOverallocate' | 'disk' | 'diskOverallocate'>;
/** What the servers on a node take of it. */
export type NodeUsage = components['schemas']['NodeUsageDto'];
export type Allocation = components['schemas']['AllocationResponseDto'];
/** An egg, as far as creating a server takes from it. */
export type Egg = Pick<components['schemas']['EggResponseDto'], 'id' | 'nestId' | 'name' | 'dockerImage' | 'dockerImages' | 'startup' | 'variables'>;
export type AdminStartup = components['schemas']['AdminStartupDto'];
/** Whether the node took a change (saved either way). */
export type SyncOutcome = components['schemas']['SyncOutcomeDto'];
/** The body of `POST /api/admin/servers`. */
export type CreateServerBody = components['schemas']['CreateServerDto'];
export type BuildBody = components['schemas']['UpdateServerBuildDto'];
/** `egg_id`: another egg, whose variables replace the server's (docs/api.md#changing-a-servers-egg). */
export type StartupBody = components['schemas']['UpdateServerStartupDto'];

const PER_PAGE = 100;
/** The most pages a "read it all" list follows (10,000 rows). */
const MAX_PAGES = 100;

/**
 * Every row of a paginated admin list, page after page: `readPage` asks for one page of the route (so
 * the route, its parameters and its rows are typed by the OpenAPI document where it is called).
 */
const readAll = async <T,>(readPage: (query: { page: number; perPage: number }) => Promise<{ data?: { data: T[]; meta: { pagination: { totalPages: number } } | { cursor: unknown } } }>): Promise<T[]> => {
  const rows: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = (await readPage({ page, perPage: PER_PAGE })).data!;
    rows.push(...body.data);
    if (page >= pageMeta(body.meta).pagination.totalPages) {
      break;
    }
  }
  return rows;
};

const adminServerKeys = {
  all: ['admin-servers'] as const,
  list: (page: number, search: string, nodeId: string) => ['admin-servers', 'list', page, search, nodeId] as const,
  one: (id: string) => ['admin-servers', 'server', id] as const,
  startup: (id: string) => ['admin-servers', 'server', id, 'startup'] as const,
  usage: ['admin-servers', 'node-usage'] as const,
};

const LIST_PER_PAGE = 25;

/** A page of servers; `nodeId` keeps those on one node (its page's Servers tab). */
export const adminServersQuery = (page: number, search: string, nodeId = '') =>
  queryOptions({
    queryKey: adminServerKeys.list(page, search, nodeId),
    queryFn: async () => {
      const query = { page, perPage: LIST_PER_PAGE, ...(search ? { search } : {}), ...(nodeId ? { nodeId } : {}) };
      const { data } = await api.GET('/api/admin/servers', { params: { query } });
      return { data: data!.data, meta: pageMeta(data!.meta) };
    },
    placeholderData: keepPreviousData,
  });

export const adminServerQuery = (id: string) =>
  queryOptions({
    queryKey: adminServerKeys.one(id),
    queryFn: async (): Promise<AdminServer> => (await api.GET('/api/admin/servers/{id}', { params: { path: { id } } })).data!.data,
    // While the node installs it, the page follows the install through.
    refetchInterval: (query) => (query.state.data?.installStatus === 'installing' ? 2000 : false),
  });

export const adminStartupQuery = (id: string) =>
  queryOptions({
    queryKey: adminServerKeys.startup(id),
    queryFn: async (): Promise<AdminStartup> => (await api.GET('/api/admin/servers/{id}/startup', { params: { path: { id } } })).data!.data,
  });

export const usersQuery = queryOptions({ queryKey: ['admin-servers', 'users'], queryFn: () => readAll((query) => api.GET('/api/admin/users', { params: { query } })) });

export const nodesQuery = queryOptions({ queryKey: ['admin-servers', 'nodes'], queryFn: () => readAll((query) => api.GET('/api/admin/nodes', { params: { query } })) });

export const nodeUsageQuery = queryOptions({
  queryKey: adminServerKeys.usage,
  queryFn: async (): Promise<NodeUsage[]> => (await api.GET('/api/admin/servers/node-usage')).data!.data,
});

export const allocationsQuery = (nodeId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'allocations', nodeId],
    queryFn: () => readAll((query) => api.GET('/api/admin/nodes/{id}/allocations', { params: { path: { id: nodeId }, query } })),
    enabled: nodeId !== '',
  });

export const nestsQuery = queryOptions({ queryKey: ['admin-servers', 'nests'], queryFn: () => readAll((query) => api.GET('/api/admin/nests', { params: { query } })) });

export const eggsQuery = (nestId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'eggs', nestId],
    queryFn: () => readAll((query) => api.GET('/api/admin/eggs', { params: { query: { ...query, nestId } } })),
    enabled: nestId !== '',
  });

export const eggQuery = (eggId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'egg', eggId],
    queryFn: async (): Promise<Egg> => (await api.GET('/api/admin/eggs/{egg}', { params: { path: { egg: eggId } } })).data!.data,
    enabled: eggId !== '',
  });

/**
 * After any change: the server, its startup, the lists and the node usage are read again. Not awaited, so
 * the caller's own onSuccess runs first (a form keyed by its data remounts when the refetch lands, and
 * TanStack drops the callbacks of a mutate whose component is gone).
 */
const useServerMutation = <T, R = unknown>(fn: (input: T) => Promise<R>, refresh: (readonly unknown[])[] = [adminServerKeys.all]) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      for (const queryKey of refresh) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
};

export const useCreateServer = () =>
  useServerMutation(async (body: CreateServerBody): Promise<AdminServer> => (await api.POST('/api/admin/servers', { body })).data!.data);

export const useUpdateDetails = (id: string) =>
  useServerMutation(
    async (body: components['schemas']['UpdateServerDetailsDto']): Promise<SyncOutcome> =>
      (await api.PATCH('/api/admin/servers/{id}', { params: { path: { id } }, body })).data!.meta,
  );

export const useUpdateBuild = (id: string) =>
  useServerMutation(async (body: BuildBody): Promise<SyncOutcome> => (await api.PATCH('/api/admin/servers/{id}/build', { params: { path: { id } }, body })).data!.meta);

export const useUpdateStartup = (id: string) =>
  useServerMutation(async (body: StartupBody): Promise<SyncOutcome> => (await api.PATCH('/api/admin/servers/{id}/startup', { params: { path: { id } }, body })).data!.meta);

export const useSetSuspended = (id: string) =>
  useServerMutation(
    async (suspended: boolean): Promise<SyncOutcome> =>
      (await api.POST(suspended ? '/api/admin/servers/{id}/suspend' : '/api/admin/servers/{id}/unsuspend', { params: { path: { id } } })).data!.meta,
  );

export const useReinstall = (id: string) => useServerMutation(() => api.POST('/api/admin/servers/{id}/reinstall', { params: { path: { id } } }));

// Only the lists: the deleted server's own queries would answer 404 under the page that is leaving.
export const useDeleteServer = (id: string) =>
  useServerMutation((force: boolean) => api.DELETE('/api/admin/servers/{id}', { params: { path: { id }, query: force ? { force: 'true' } : {} } }), [
    ['admin-servers', 'list'],
    adminServerKeys.usage,
  ]);

export type Transfer = components['schemas']['TransferDto'];
type StartTransferBody = components['schemas']['StartTransferDto'];

/** The states a transfer passes through while it runs (docs/admin-guide.md#transfers). */
export const ACTIVE_TRANSFER_STATES: readonly Transfer['state'][] = ['pending', 'archiving', 'restoring'];

/** The server's current or last transfer (null when it never had one); polled every 1.5 s while one runs. */
export const transferQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'server', id, 'transfer'],
    queryFn: async (): Promise<Transfer | null> => {
      try {
        return (await api.GET('/api/admin/servers/{id}/transfer', { params: { path: { id } } })).data!.data;
      } catch (e) {
        if (e instanceof ApiError && e.code === 'TRANSFER_NOT_FOUND') {
          return null;
        }
        throw e;
      }
    },
    refetchInterval: (query) => (query.state.data && ACTIVE_TRANSFER_STATES.includes(query.state.data.state) ? 1500 : false),
  });

export const useStartTransfer = (id: string) =>
  useServerMutation(async (body: StartTransferBody): Promise<Transfer> => (await api.POST('/api/admin/servers/{id}/transfer', { params: { path: { id } }, body })).data!.data);

export const useCancelTransfer = (id: string) =>
  useServerMutation(async (): Promise<Transfer> => (await api.DELETE('/api/admin/servers/{id}/transfer', { params: { path: { id } } })).data!.data);
