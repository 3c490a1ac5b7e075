import { createFileRoute } from '@tanstack/react-router';
import { MountsPage } from '@/features/admin-mounts/components/MountsPage';
import { mountsQuery } from '@/features/admin-mounts/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/mounts`: directories of the nodes given to servers.
export const Route = createFileRoute('/_app/admin/mounts/')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('mounts', 'read')) {
      void context.queryClient.prefetchQuery(mountsQuery(''));
    }
  },
  component: MountsPage,
});
