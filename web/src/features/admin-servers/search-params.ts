/** The admin server list's URL search params: `?q=lobby&page=2` (defaults left out). */
export interface AdminServersSearch {
  q?: string;
  page?: number;
}

export const parseAdminServersSearch = (search: Record<string, unknown>): AdminServersSearch => {
  const out: AdminServersSearch = {};
  if (typeof search.q === 'string' && search.q.trim() !== '') {
    out.q = search.q.slice(0, 100);
  }
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  if (Number.isInteger(page) && page > 1) {
    out.page = Math.min(page, 1_000_000);
  }
  return out;
};

/** The tabs of an admin server page, kept in `?tab=` (details is the default, left out). */
export const SERVER_TABS = ['details', 'build', 'startup', 'mounts', 'manage'] as const;
export type ServerTab = (typeof SERVER_TABS)[number];

export const parseServerTab = (search: Record<string, unknown>): { tab?: ServerTab } =>
  typeof search.tab === 'string' && (SERVER_TABS as readonly string[]).includes(search.tab) && search.tab !== 'details' ? { tab: search.tab as ServerTab } : {};
