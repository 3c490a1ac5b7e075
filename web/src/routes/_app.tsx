import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppLayout } from '@/app/AppLayout';
import { TwoFactorSetupPage } from '@/features/account/components/TwoFactorSetupPage';
import { sessionQuery } from '@/features/auth/api';
import { ApiError } from '@/lib/api/api-error';

// Every signed-in page is a child of this pathless layout (files in routes/_app/): it loads the
// session once and sends anyone signed out to the sign-in page, coming back afterwards. A user the
// two-factor policy holds sees the setup instead of any page until it is done (the query client
// reloads the session when an answer says TWO_FACTOR_SETUP_REQUIRED, as when the policy changes).
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
    const context = Route.useRouteContext();
    const queryClient = useQueryClient();
    const session = useQuery(sessionQuery).data ?? context.session;
    if (session.twoFactorSetupRequired) {
      return <TwoFactorSetupPage onDone={() => void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })} />;
    }
    return <AppLayout user={session.user} />;
  },
});
