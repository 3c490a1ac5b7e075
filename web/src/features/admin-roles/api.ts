import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type Role = components['schemas']['RoleDto'];
export type RoleBody = components['schemas']['CreateRoleDto'];
export type RolePermission = components['schemas']['RolePermissionDto'];
export type NodeChoice = { id: string; name: string };

const keys = {
  all: ['admin-roles'] as const,
  list: ['admin-roles', 'list'] as const,
  nodes: ['admin-roles', 'nodes'] as const,
};

/** Every role, by name (there are few: the API answers them all at once). */
export const rolesQuery = () =>
  queryOptions({
    queryKey: keys.list,
    queryFn: async (): Promise<Role[]> => (await api.GET('/api/admin/roles')).data!.data,
  });

/** The nodes a role can be limited to, by name (100 a page, at most 100 pages). */
export const roleNodeChoicesQuery = () =>
  queryOptions({
    queryKey: keys.nodes,
    queryFn: async (): Promise<NodeChoice[]> => {
      const rows: NodeChoice[] = [];
      for (let page = 1; page <= 100; page++) {
        const body = (await api.GET('/api/admin/nodes', { params: { query: { page, perPage: 100 } } })).data!;
        rows.push(...body.data.map((n) => ({ id: n.id, name: n.name })));
        if (page >= pageMeta(body.meta).pagination.totalPages) {
          break;
        }
      }
      return rows;
    },
  });

/** A role change: the roles are read again, and the users' pages (their roles' names come from the list). */
const useRoleMutation = <T, R>(fn: (input: T) => Promise<R>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: keys.all }) });
};

export const useSaveRole = () =>
  useRoleMutation(async ({ id, body }: { id?: string; body: RoleBody }): Promise<Role> =>
    id ? (await api.PATCH('/api/admin/roles/{id}', { params: { path: { id } }, body })).data!.data : (await api.POST('/api/admin/roles', { body })).data!.data,
  );

export const useDeleteRole = () =>
  useRoleMutation(async (id: string) => {
    await api.DELETE('/api/admin/roles/{id}', { params: { path: { id } } });
  });
