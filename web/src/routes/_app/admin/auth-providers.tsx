import { createFileRoute } from '@tanstack/react-router';
import { authProvidersQuery } from '@/features/auth-providers/api';
import { AuthProvidersPage } from '@/features/auth-providers/components/AuthProvidersPage';

// `/admin/auth-providers`: single sign-on providers (docs/sso.md).
export const Route = createFileRoute('/_app/admin/auth-providers')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(authProvidersQuery);
    }
  },
  component: AuthProvidersPage,
});
