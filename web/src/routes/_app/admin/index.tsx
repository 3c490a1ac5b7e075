import { createFileRoute, redirect } from '@tanstack/react-router';
import { AdminOverview } from '@/features/admin/components/AdminOverview';
import { firstAdminPath } from '@/features/admin/components/AdminLayout';
import { overviewQuery } from '@/features/admin/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin`: how many users, nodes, servers and eggs the panel holds. A role holder without the
// overview (it needs the nodes on every node) goes to its first tab instead.
export const Route = createFileRoute('/_app/admin/')({
  beforeLoad: ({ context }) => {
    const first = firstAdminPath(adminAccessFrom(context.session.adminAccess));
    if (first !== null && first !== '/admin') {
      throw redirect({ to: first, replace: true });
    }
  },
  loader: ({ context }) => {
    if (firstAdminPath(adminAccessFrom(context.session.adminAccess)) === '/admin') {
      void context.queryClient.prefetchQuery(overviewQuery());
    }
  },
  component: AdminOverview,
});
