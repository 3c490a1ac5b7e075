import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppLayout } from '@/app/AppLayout';
import { sessionQuery } from '@/features/auth/api';
import { ApiError } from '@/lib/api/api-error';

// Every signed-in page is a child of this pathless layout (files in routes/_app/): it loads the
// session once and sends anyone signed out to the sign-in page, coming back afterwards.
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    try {
      return { session: await context.queryClient.ensureQueryData(sessionQuery) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        throw redirect({ to: '/auth/login', search: { next: location.href } });
      }
      throw error;
    }
  },
  component: function AppRoute() {
    const { session } = Route.useRouteContext();
    return <AppLayout user={session.user} />;
  },
});
