import { createFileRoute } from '@tanstack/react-router';
import { BackupHostsPage } from '@/features/admin-backup-hosts/components/BackupHostsPage';
import { backupHostsQuery } from '@/features/admin-backup-hosts/api';

// `/admin/backup-hosts`: where nodes send their backups.
export const Route = createFileRoute('/_app/admin/backup-hosts')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(backupHostsQuery());
    }
  },
  component: BackupHostsPage,
});
