import { createFileRoute } from '@tanstack/react-router';
import { authProvidersQuery } from '@/features/auth-providers/api';
import { AuthProvidersPage } from '@/features/auth-providers/components/AuthProvidersPage';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/auth-providers`: single sign-on providers (docs/sso.md).
export const Route = createFileRoute('/_app/admin/auth-providers')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('settings', 'read')) {
      void context.queryClient.prefetchQuery(authProvidersQuery);
    }
  },
  component: AuthProvidersPage,
});
