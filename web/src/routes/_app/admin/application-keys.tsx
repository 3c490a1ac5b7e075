import { createFileRoute } from '@tanstack/react-router';
import { ApplicationKeysPage } from '@/features/admin-application-keys/components/ApplicationKeysPage';
import { applicationKeysQuery } from '@/features/admin-application-keys/api';
import { forAdmin } from '@/lib/route-data';

// `/admin/application-keys`: the administrator's keys for Pterodactyl's application API.
export const Route = createFileRoute('/_app/admin/application-keys')({
  loader: ({ context }) => forAdmin(context.session.user.admin, () => context.queryClient.ensureQueryData(applicationKeysQuery())),
  component: ApplicationKeysPage,
});
