import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** AllocationViewDto: an address as the server's answers show it (alias before ip). */
interface AllocationView {
  ip: string;
  port: number;
  description: string;
}

/** AdminServerDto. */
export interface AdminServer {
  id: string;
  uuid: string;
  identifier: string;
  name: string;
  description: string | null;
  /** installing, install_failed, reinstall_failed, restoring_backup, suspended or installed. */
  status: string;
  suspended: boolean;
  node: { id: string; name: string };
  owner: { id: string; username: string };
  limits: { memory: number; disk: number; cpu: number; swap: number | null; io: number };
  allocations: { primary: AllocationView | null; additional: AllocationView[] };
  createdAt: string;
  ownerId: string;
  nodeId: string;
  eggId: string;
  allocationId: string | null;
  startup: string;
  image: string;
  threads: string | null;
  oomDisabled: boolean;
  skipScripts: boolean;
  featureLimits: { databases: number; allocations: number; backups: number };
  installStatus: string | null;
  installedAt: string | null;
  updatedAt: string;
}

interface Pagination {
  total: number;
  count: number;
  perPage: number;
  currentPage: number;
  totalPages: number;
}

interface PageOf<T> {
  data: T[];
  meta: { pagination: Pagination };
}

/** UserResponseDto (the fields the owner pickers show). */
interface AdminUser {
  id: string;
  username: string;
  email: string;
  name: string;
  admin: boolean;
}

/** NodeResponseDto (the fields the node step weighs). */
export interface AdminNode {
  id: string;
  name: string;
  fqdn: string;
  maintenanceMode: boolean;
  memory: number;
  memoryOverallocate: number;
  disk: number;
  diskOverallocate: number;
}

/** NodeUsageDto: what the servers on a node take of it. */
export interface NodeUsage {
  nodeId: string;
  servers: number;
  memory: number;
  disk: number;
}

/** AllocationResponseDto. */
export interface Allocation {
  id: string;
  ip: string;
  port: number;
  alias: string | null;
  notes: string | null;
  serverId: string | null;
  assigned: boolean;
}

interface Nest {
  id: string;
  name: string;
}

interface EggListItem {
  id: string;
  name: string;
  nestName: string;
}

/** EggVariableResponseDto. */
export interface EggVariable {
  id: string;
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  rules: string;
}

/** EggResponseDto (what creating a server takes from it). */
export interface Egg {
  id: string;
  nestId: string;
  name: string;
  dockerImage: string;
  dockerImages: { name: string; image: string }[];
  startup: string;
  variables: EggVariable[];
}

/** AdminStartupDto. */
export interface AdminStartup {
  startup: string;
  image: string;
  skipScripts: boolean;
  eggStartup: string;
  dockerImages: { name: string; image: string }[];
  variables: {
    envVariable: string;
    name: string;
    description: string;
    defaultValue: string;
    serverValue: string;
    rules: string;
    userViewable: boolean;
    userEditable: boolean;
  }[];
}

/** Whether the node took a change (saved either way). */
export interface SyncOutcome {
  daemonSynced: boolean;
  syncError?: string;
}

/** The body of `POST /api/admin/servers` (CreateServerDto). */
export interface CreateServerBody {
  name: string;
  description?: string;
  owner_id: string;
  node_id: string;
  egg_id: string;
  memory: number;
  swap: number;
  disk: number;
  cpu: number;
  io: number;
  threads?: string;
  oom_disabled: boolean;
  allocation_id: string;
  additional_allocation_ids: string[];
  environment: Record<string, string>;
  startup: string;
  docker_image: string;
  database_limit: number;
  allocation_limit: number;
  backup_limit: number;
  skip_scripts: boolean;
  start_on_completion: boolean;
}

export type BuildBody = Partial<Pick<CreateServerBody, 'memory' | 'swap' | 'disk' | 'cpu' | 'io' | 'oom_disabled' | 'allocation_id' | 'database_limit' | 'allocation_limit' | 'backup_limit'>> & {
  threads?: string | null;
  add_allocations?: string[];
  remove_allocations?: string[];
};

export interface StartupBody {
  /** Another egg: its variables replace the server's (docs/api.md#changing-a-servers-egg). */
  egg_id?: string;
  startup?: string;
  image?: string;
  skip_scripts?: boolean;
  environment?: Record<string, string>;
}

const PER_PAGE = 100;
/** The most pages a "read it all" list follows (10,000 rows). */
const MAX_PAGES = 100;

/** Every row of a paginated admin list, page after page. */
const readAll = async <T,>(path: string, query: Record<string, string> = {}, pathParams: Record<string, string> = {}): Promise<T[]> => {
  const rows: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await api.GET(path as never, { params: { path: pathParams, query: { ...query, page, perPage: PER_PAGE } } } as never);
    const body = data as unknown as PageOf<T>;
    rows.push(...body.data);
    if (page >= body.meta.pagination.totalPages) {
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
    queryFn: async (): Promise<PageOf<AdminServer>> => {
      const query = { page, perPage: LIST_PER_PAGE, ...(search ? { search } : {}), ...(nodeId ? { nodeId } : {}) };
      const { data } = await api.GET('/api/admin/servers', { params: { query } } as never);
      return data as unknown as PageOf<AdminServer>;
    },
    placeholderData: keepPreviousData,
  });

export const adminServerQuery = (id: string) =>
  queryOptions({
    queryKey: adminServerKeys.one(id),
    queryFn: async (): Promise<AdminServer> => {
      const { data } = await api.GET('/api/admin/servers/{id}', { params: { path: { id } } } as never);
      return (data as unknown as { data: AdminServer }).data;
    },
    // While the node installs it, the page follows the install through.
    refetchInterval: (query) => (query.state.data?.installStatus === 'installing' ? 2000 : false),
  });

export const adminStartupQuery = (id: string) =>
  queryOptions({
    queryKey: adminServerKeys.startup(id),
    queryFn: async (): Promise<AdminStartup> => {
      const { data } = await api.GET('/api/admin/servers/{id}/startup' as never, { params: { path: { id } } } as never);
      return (data as unknown as { data: AdminStartup }).data;
    },
  });

export const usersQuery = queryOptions({ queryKey: ['admin-servers', 'users'], queryFn: () => readAll<AdminUser>('/api/admin/users') });

export const nodesQuery = queryOptions({ queryKey: ['admin-servers', 'nodes'], queryFn: () => readAll<AdminNode>('/api/admin/nodes') });

export const nodeUsageQuery = queryOptions({
  queryKey: adminServerKeys.usage,
  queryFn: async (): Promise<NodeUsage[]> => {
    const { data } = await api.GET('/api/admin/servers/node-usage' as never, {} as never);
    return (data as unknown as { data: NodeUsage[] }).data;
  },
});

export const allocationsQuery = (nodeId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'allocations', nodeId],
    queryFn: () => readAll<Allocation>('/api/admin/nodes/{id}/allocations', {}, { id: nodeId }),
    enabled: nodeId !== '',
  });

export const nestsQuery = queryOptions({ queryKey: ['admin-servers', 'nests'], queryFn: () => readAll<Nest>('/api/admin/nests') });

export const eggsQuery = (nestId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'eggs', nestId],
    queryFn: () => readAll<EggListItem>('/api/admin/eggs', { nestId }),
    enabled: nestId !== '',
  });

export const eggQuery = (eggId: string) =>
  queryOptions({
    queryKey: ['admin-servers', 'egg', eggId],
    queryFn: async (): Promise<Egg> => {
      const { data } = await api.GET('/api/admin/eggs/{egg}', { params: { path: { egg: eggId } } } as never);
      return (data as unknown as { data: Egg }).data;
    },
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

const synced = (data: unknown): SyncOutcome => (data as { meta: SyncOutcome }).meta;

export const useCreateServer = () =>
  useServerMutation(async (body: CreateServerBody): Promise<AdminServer> => {
    const { data } = await api.POST('/api/admin/servers', { body } as never);
    return (data as unknown as { data: AdminServer }).data;
  });

export const useUpdateDetails = (id: string) =>
  useServerMutation(async (body: { name?: string; description?: string | null; owner_id?: string }) =>
    synced((await api.PATCH('/api/admin/servers/{id}', { params: { path: { id } }, body } as never)).data),
  );

export const useUpdateBuild = (id: string) =>
  useServerMutation(async (body: BuildBody) => synced((await api.PATCH('/api/admin/servers/{id}/build', { params: { path: { id } }, body } as never)).data));

export const useUpdateStartup = (id: string) =>
  useServerMutation(async (body: StartupBody) => synced((await api.PATCH('/api/admin/servers/{id}/startup', { params: { path: { id } }, body } as never)).data));

export const useSetSuspended = (id: string) =>
  useServerMutation(async (suspended: boolean) =>
    synced((await api.POST(suspended ? '/api/admin/servers/{id}/suspend' : '/api/admin/servers/{id}/unsuspend', { params: { path: { id } } } as never)).data),
  );

export const useReinstall = (id: string) => useServerMutation(() => api.POST('/api/admin/servers/{id}/reinstall', { params: { path: { id } } } as never));

// Only the lists: the deleted server's own queries would answer 404 under the page that is leaving.
export const useDeleteServer = (id: string) =>
  useServerMutation((force: boolean) => api.DELETE('/api/admin/servers/{id}', { params: { path: { id }, query: force ? { force: 'true' } : {} } } as never), [
    ['admin-servers', 'list'],
    adminServerKeys.usage,
  ]);
