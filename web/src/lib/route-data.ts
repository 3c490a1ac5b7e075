import { ApiError } from '@/lib/api/api-error';

/**
 * A route loader's wait for its page's main query (`queryClient.ensureQueryData(...)`), for a page
 * that words its own "not found": a 404 is left to the page, whose query then holds the error;
 * any other failure goes to the route's error component.
 */
export const unlessNotFound = (loading: Promise<unknown>): Promise<unknown> =>
  loading.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      return undefined;
    }
    throw error;
  });

/** An administration page's loader runs for administrators only: anyone else meets "page not found", with nothing asked of the panel. */
export const forAdmin = (admin: boolean, load: () => Promise<unknown>): Promise<unknown> | undefined => (admin ? load() : undefined);
