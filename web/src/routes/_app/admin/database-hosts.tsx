import { createFileRoute } from '@tanstack/react-router';
import { DatabaseHostsPage } from '@/features/admin-database-hosts/components/DatabaseHostsPage';
import { hostsQuery } from '@/features/admin-database-hosts/api';

// `/admin/database-hosts`: where customer databases are made.
export const Route = createFileRoute('/_app/admin/database-hosts')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(hostsQuery());
    }
  },
  component: DatabaseHostsPage,
});
