import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api/client';

/** The lists the overview counts: each is read as one row per page, for its `meta.pagination.total`. */
export const COUNTED = ['users', 'nodes', 'servers', 'eggs'] as const;
export type Counted = (typeof COUNTED)[number];

interface PageMeta {
  meta: { pagination: { total: number } };
}

export const countQuery = (what: Counted) =>
  queryOptions({
    queryKey: ['admin', 'count', what],
    queryFn: async (): Promise<number> => {
      const { data } = await api.GET(`/api/admin/${what}`, { params: { query: { perPage: 1 } } } as never);
      return (data as unknown as PageMeta).meta.pagination.total;
    },
  });
