/** The activity page's URL search params: `?event=server.schedule.*&page=2` (defaults left out). */
export interface ActivitySearch {
  event?: string;
  page?: number;
}

/** What the panel accepts as `event`: a dotted lower-case name, or a prefix ending in `.*`. */
const EVENT_FILTER = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*(\.\*)?$/;

export const parseActivitySearch = (search: Record<string, unknown>): ActivitySearch => {
  const out: ActivitySearch = {};
  if (typeof search.event === 'string' && search.event.length <= 64 && EVENT_FILTER.test(search.event)) {
    out.event = search.event;
  }
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  if (Number.isInteger(page) && page > 1) {
    out.page = Math.min(page, 1_000_000);
  }
  return out;
};
