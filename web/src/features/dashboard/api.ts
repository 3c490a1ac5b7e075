import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '@/lib/api/client';
import type { ListedServer } from '@/features/dashboard/server-view';

/**
 * The dashboard's tabs and the list `type` each reads. `mine`, the first a user sees, is every server
 * they can open, their own and those shared with them (docs/api.md: no type = own and shared), as
 * Pterodactyl's default list; `shared` narrows it to the shared ones; `all` is every server (admins).
 */
export const SERVER_TABS = ['mine', 'shared', 'all'] as const;
export type ServerTab = (typeof SERVER_TABS)[number];
const LIST_TYPE: Record<ServerTab, 'subuser' | 'admin-all' | undefined> = { mine: undefined, shared: 'subuser', all: 'admin-all' };

/** Cards per page: divisible by the 1, 2 and 3 columns of the grid. */
const PAGE_SIZE = 24;

/** One page of a tab; with `search`, of its servers matching it (the panel searches, across every page). */
const fetchPage = async (tab: ServerTab, page: number, search: string, signal?: AbortSignal) => {
  const { data } = await api.GET('/api/client/servers', {
    params: { query: { ...(LIST_TYPE[tab] ? { type: LIST_TYPE[tab] } : {}), page, perPage: PAGE_SIZE, ...(search ? { search } : {}) } },
    signal,
  });
  return data!;
};

const dashboardKeys = {
  all: ['dashboard', 'servers'] as const,
  page: (tab: ServerTab, page: number) => [...dashboardKeys.all, tab, 'page', page] as const,
  search: (tab: ServerTab, query: string, page: number) => [...dashboardKeys.all, tab, 'search', query, page] as const,
};

/**
 * One page of a tab's servers, or of the servers matching `query` (the previous page stays on screen
 * while the next loads).
 */
export const useServerList = (tab: ServerTab, page: number, query: string) => {
  const q = query.trim();
  const result = useQuery({
    queryKey: q ? dashboardKeys.search(tab, q, page) : dashboardKeys.page(tab, page),
    queryFn: ({ signal }) => fetchPage(tab, page, q, signal),
    placeholderData: keepPreviousData,
  });
  const data = useMemo((): { servers: ListedServer[]; total: number; totalPages: number } | undefined => {
    if (!result.data) {
      return undefined;
    }
    const { data: servers, meta } = result.data;
    return { servers, total: meta.pagination.total, totalPages: Math.max(1, meta.pagination.totalPages) };
  }, [result.data]);
  return { ...result, data };
};
