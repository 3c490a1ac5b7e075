import { createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { PageSkeleton } from '@/components/Skeletons';
import { RouteErrorPage } from '@/components/RouteErrorPage';
import { routeTree } from '@/routeTree.gen';

export const createAppRouter = (queryClient: QueryClient) =>
  createRouter({
    routeTree,
    context: { queryClient },
    // Hovering a link starts loading its route's code and data.
    defaultPreload: 'intent',
    // Route data lives in TanStack Query; the router keeps none of its own. Each page's loader starts
    // its main query without awaiting it, so the data and the route's code load together (and on
    // hovering a link); the page itself shows loading, failure (in its own words, with Retry) and
    // empty states, which an awaited loader would replace with the pending and error pages below.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: PageSkeleton,
    defaultPendingMs: 300,
    defaultErrorComponent: RouteErrorPage,
    scrollRestoration: true,
  });

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
