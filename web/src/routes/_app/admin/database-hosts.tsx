import { createFileRoute } from '@tanstack/react-router';
import { DatabaseHostsPage } from '@/features/admin-database-hosts/components/DatabaseHostsPage';
import { hostsQuery } from '@/features/admin-database-hosts/api';
import { forAdmin } from '@/lib/route-data';

// `/admin/database-hosts`: where customer databases are made.
export const Route = createFileRoute('/_app/admin/database-hosts')({
  loader: ({ context }) => forAdmin(context.session.user.admin, () => context.queryClient.ensureQueryData(hostsQuery())),
  component: DatabaseHostsPage,
});
