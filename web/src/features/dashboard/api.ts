import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '@/lib/api/client';
import { matchesSearch, type ListedServer } from '@/features/dashboard/server-view';

/** The dashboard's tabs and the list `type` each reads (docs/api.md: no type = own and shared). */
export const SERVER_TABS = ['mine', 'shared', 'all'] as const;
export type ServerTab = (typeof SERVER_TABS)[number];
const LIST_TYPE: Record<ServerTab, 'owner' | 'subuser' | 'admin-all'> = { mine: 'owner', shared: 'subuser', all: 'admin-all' };

/** Cards per page: divisible by the 1, 2 and 3 columns of the grid. */
const PAGE_SIZE = 24;
/** A search reads the tab's list in pages of the API's largest size, up to this many (5,000 servers). */
const SEARCH_PAGE_SIZE = 100;
const SEARCH_MAX_PAGES = 50;

interface ListPage {
  data: ListedServer[];
  meta: { pagination: { total: number; totalPages: number } };
}

interface ServerListResult {
  servers: ListedServer[];
  total: number;
  totalPages: number;
}

const fetchPage = async (tab: ServerTab, page: number, perPage: number, signal?: AbortSignal): Promise<ListPage> => {
  const { data } = await api.GET('/api/client/servers', { params: { query: { type: LIST_TYPE[tab], page, perPage } }, signal });
  return data as unknown as ListPage;
};

/**
 * Every server of the tab that matches the search. The list route has no search parameter, so a
 * search reads the tab's list (one request for up to 100 servers) and filters here; pages follow one
 * after the other, never at once, so a big "all servers" list does not flood the panel.
 */
export const searchServers = async (
  readPage: (page: number) => Promise<ListPage>,
  query: string,
): Promise<ListedServer[]> => {
  const matches: ListedServer[] = [];
  for (let page = 1; page <= SEARCH_MAX_PAGES; page += 1) {
    const { data, meta } = await readPage(page);
    matches.push(...data.filter((s) => matchesSearch(s, query)));
    if (page >= meta.pagination.totalPages) {
      break;
    }
  }
  return matches;
};

const dashboardKeys = {
  all: ['dashboard', 'servers'] as const,
  page: (tab: ServerTab, page: number) => [...dashboardKeys.all, tab, 'page', page] as const,
  search: (tab: ServerTab, query: string) => [...dashboardKeys.all, tab, 'search', query] as const,
};

/**
 * One page of a tab's servers, or of the servers matching `query` (the previous page stays on screen
 * while the next loads).
 */
export const useServerList = (tab: ServerTab, page: number, query: string) => {
  const q = query.trim();
  const result = useQuery({
    queryKey: q ? dashboardKeys.search(tab, q) : dashboardKeys.page(tab, page),
    queryFn: async ({ signal }): Promise<{ servers: ListedServer[]; total: number; all: boolean }> => {
      if (q) {
        const servers = await searchServers((p) => fetchPage(tab, p, SEARCH_PAGE_SIZE, signal), q);
        return { servers, total: servers.length, all: true };
      }
      const { data, meta } = await fetchPage(tab, page, PAGE_SIZE, signal);
      return { servers: data, total: meta.pagination.total, all: false };
    },
    placeholderData: keepPreviousData,
  });
  const data = useMemo((): ServerListResult | undefined => {
    if (!result.data) {
      return undefined;
    }
    const { servers, total, all } = result.data;
    return {
      servers: all ? servers.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) : servers,
      total,
      totalPages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }, [result.data, page]);
  return { ...result, data };
};
