import { createFileRoute } from '@tanstack/react-router';
import { DatabaseHostsPage } from '@/features/admin-database-hosts/components/DatabaseHostsPage';

// `/admin/database-hosts`: where customer databases are made.
export const Route = createFileRoute('/_app/admin/database-hosts')({
  component: DatabaseHostsPage,
});
