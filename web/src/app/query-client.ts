import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { sessionQuery } from '@/features/auth/api';
import { ApiError } from '@/lib/api/api-error';

/** Retries only what may pass on a second try: network failures and 5xx, twice; never a 4xx. */
export const shouldRetry = (failureCount: number, error: unknown): boolean =>
  failureCount < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500);

export const createQueryClient = (): QueryClient => {
  // The two-factor policy came to cover the signed-in user (or the session was held all along):
  // reloading the session makes the app layout show the setup page instead of the failed page.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'TWO_FACTOR_SETUP_REQUIRED') {
      void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
  return client;
};
