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
    // Route data lives in TanStack Query; the router keeps none of its own.
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
