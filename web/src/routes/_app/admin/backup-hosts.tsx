import { createFileRoute } from '@tanstack/react-router';
import { BackupHostsPage } from '@/features/admin-backup-hosts/components/BackupHostsPage';
import { backupHostsQuery } from '@/features/admin-backup-hosts/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/backup-hosts`: where nodes send their backups.
export const Route = createFileRoute('/_app/admin/backup-hosts')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('backup_hosts', 'read')) {
      void context.queryClient.prefetchQuery(backupHostsQuery());
    }
  },
  component: BackupHostsPage,
});
