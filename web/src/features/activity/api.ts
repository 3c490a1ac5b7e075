import { queryOptions } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type ActivityEntry = components['schemas']['ServerActivityDto'];

const ACTIVITY_PER_PAGE = 25;

/** One page of the server's activity, newest first, optionally only an event or the events under a `.*` prefix. */
export const activityQuery = (server: string, page: number, event?: string) =>
  queryOptions({
    queryKey: ['activity', server, page, event ?? null] as const,
    queryFn: async () => {
      const { data } = await api.GET('/api/client/servers/{server}/activity', {
        params: { path: { server }, query: { page, perPage: ACTIVITY_PER_PAGE, ...(event ? { event } : {}) } },
      });
      return { data: data!.data, meta: pageMeta(data!.meta) };
    },
    // Another page of the same filter keeps the rows in view while it loads; another filter does not.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === (event ?? null) ? previous : undefined),
  });

/** The account events the account's activity offers as filters, in this order. */
export const ACCOUNT_EVENTS = ['user.password_changed', 'user.email_changed', 'user.two_factor_enabled', 'user.two_factor_disabled', 'user.passkey_added', 'user.passkey_removed'] as const;

/** One page of the signed-in account's own events (password, e-mail, two-factor…), newest first, optionally one event only. */
export const accountActivityQuery = (page: number, event?: string) =>
  queryOptions({
    queryKey: ['activity', 'account', page, event ?? null] as const,
    queryFn: async () => {
      const { data } = await api.GET('/api/account/activity', { params: { query: { page, perPage: ACTIVITY_PER_PAGE, ...(event ? { event } : {}) } } });
      return { data: data!.data, meta: pageMeta(data!.meta) };
    },
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === (event ?? null) ? previous : undefined),
  });
