import type { QueryClient } from '@tanstack/react-query';
import { Container } from '@mantine/core';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '@/components/NotFoundPage';
import { RouteErrorPage } from '@/components/RouteErrorPage';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  // Signed-in paths have their own (routes/_app/$.tsx); this one is for paths outside the app shell.
  notFoundComponent: () => (
    <Container component="main" size="sm" py="xl">
      <NotFoundPage />
    </Container>
  ),
  errorComponent: RouteErrorPage,
});
