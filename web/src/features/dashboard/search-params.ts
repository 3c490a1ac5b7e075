import { SERVER_TABS, type ServerTab } from '@/features/dashboard/api';

/** The dashboard's URL search params: `?tab=shared&q=survival&page=2` (defaults left out). */
export interface DashboardSearch {
  tab?: ServerTab;
  q?: string;
  page?: number;
}

export const parseDashboardSearch = (search: Record<string, unknown>): DashboardSearch => {
  const out: DashboardSearch = {};
  if (typeof search.tab === 'string' && (SERVER_TABS as readonly string[]).includes(search.tab) && search.tab !== 'mine') {
    out.tab = search.tab as ServerTab;
  }
  if (typeof search.q === 'string' && search.q.trim() !== '') {
    out.q = search.q.slice(0, 100);
  }
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  if (Number.isInteger(page) && page > 1) {
    out.page = Math.min(page, 10_000);
  }
  return out;
};
