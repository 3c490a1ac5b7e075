import { createFileRoute } from '@tanstack/react-router';
import { ApplicationKeysPage } from '@/features/admin-application-keys/components/ApplicationKeysPage';
import { applicationKeysQuery } from '@/features/admin-application-keys/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/application-keys`: the administrator's keys for Pterodactyl's application API.
export const Route = createFileRoute('/_app/admin/application-keys')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).any) {
      void context.queryClient.prefetchQuery(applicationKeysQuery());
    }
  },
  component: ApplicationKeysPage,
});
