import type { ReactNode } from 'react';
import { ErrorState } from '@/components/ErrorState';
import { ListSkeleton } from '@/components/Skeletons';

/** What the body reads of a TanStack Query result (a hook may reshape its data and still pass). */
interface ListQuery<TData> {
  data: TData | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
}

interface QueryListBodyProps<TData> {
  query: ListQuery<TData>;
  /** What shows while the first load runs; three skeleton rows unless told. */
  loading?: ReactNode;
  /** Another query the body needs is still loading (the server's permissions, say): the skeleton shows until it is done. */
  waiting?: boolean;
  /** The error state's title (the generic one unless told). */
  errorTitle?: string;
  /** What shows when the loaded list has nothing in it (an EmptyState). */
  empty?: ReactNode;
  /** Whether the loaded data is an empty list; an array with no items unless told (a page of results, say). */
  isEmpty?: (data: TData) => boolean;
  /** The list itself, once there is something in it. */
  children: (data: TData) => ReactNode;
}

const isEmptyArray = (data: unknown): boolean => Array.isArray(data) && data.length === 0;

/**
 * The body of a list page for one query: skeleton rows while it loads, the error with Retry when it
 * fails, the empty state when there is nothing, else the list. Without `empty`, the render prop gets the
 * loaded data whatever it holds (a page that words its own empty state among other content).
 */
export const QueryListBody = <TData,>({ query, waiting = false, loading, errorTitle, empty, isEmpty = isEmptyArray, children }: QueryListBodyProps<TData>) => {
  if (query.isError) {
    return <ErrorState error={query.error} title={errorTitle} onRetry={() => void query.refetch()} />;
  }
  if (query.isPending || waiting || query.data === undefined) {
    return <>{loading ?? <ListSkeleton rows={3} />}</>;
  }
  if (empty !== undefined && isEmpty(query.data)) {
    return <>{empty}</>;
  }
  return <>{children(query.data)}</>;
};
