import { createFileRoute } from '@tanstack/react-router';
import { DatabaseHostsPage } from '@/features/admin-database-hosts/components/DatabaseHostsPage';
import { hostsQuery } from '@/features/admin-database-hosts/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/database-hosts`: where customer databases are made.
export const Route = createFileRoute('/_app/admin/database-hosts')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('database_hosts', 'read')) {
      void context.queryClient.prefetchQuery(hostsQuery());
    }
  },
  component: DatabaseHostsPage,
});
