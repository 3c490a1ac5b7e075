import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { components, paths } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type AuditEntry = components['schemas']['AuditLogResponseDto'];

/** The filters of the audit log's query the page offers. */
export type AuditFilter = Pick<NonNullable<paths['/api/admin/audit-logs']['get']['parameters']['query']>, 'action' | 'actorId' | 'page'>;

const PER_PAGE = 25;

/** The actions the panel records, offered as suggestions (the filter takes any exact action). */
export const KNOWN_ACTIONS = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.suspended',
  'user.unsuspended',
  'user.two_factor_reset',
  'user.password_changed',
  'user.email_changed',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'user.passkey_added',
  'user.passkey_removed',
  'location.created',
  'location.updated',
  'location.deleted',
  'node.created',
  'node.updated',
  'node.deleted',
  'node.token_reset',
  'allocation.created',
  'allocation.deleted',
  'database_host.created',
  'database_host.updated',
  'database_host.deleted',
  'server.created',
  'server.details.updated',
  'server.build.updated',
  'server.startup.updated',
  'server.suspended',
  'server.unsuspended',
  'server.reinstalled',
  'server.deleted',
  'nest.created',
  'nest.updated',
  'nest.deleted',
  'egg.created',
  'egg.imported',
  'egg.updated',
  'egg.deleted',
  'egg.variable.created',
  'egg.variable.updated',
  'egg.variable.deleted',
] as const;

export const auditQuery = (filter: AuditFilter) =>
  queryOptions({
    queryKey: ['admin-audit', filter.action ?? '', filter.actorId ?? '', filter.page ?? 1],
    queryFn: async () => {
      const { data } = await api.GET('/api/admin/audit-logs', {
        params: { query: { page: filter.page ?? 1, perPage: PER_PAGE, ...(filter.action ? { action: filter.action } : {}), ...(filter.actorId ? { actorId: filter.actorId } : {}) } },
      });
      const { pagination } = pageMeta(data!.meta);
      return { entries: data!.data, total: pagination.total, totalPages: pagination.totalPages };
    },
    placeholderData: keepPreviousData,
  });

/** Accounts to filter by: the first 100 (administrators are the ones who act, and they are few). */
export const actorsQuery = () =>
  queryOptions({
    queryKey: ['admin-audit', 'actors'],
    queryFn: async () => (await api.GET('/api/admin/users', { params: { query: { perPage: 100 } } })).data!.data.map((u) => ({ id: u.id, username: u.username, admin: u.admin })),
  });
