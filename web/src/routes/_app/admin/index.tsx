import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '@/features/admin/components/AdminOverview';
import { overviewQuery } from '@/features/admin/api';

// `/admin`: how many users, nodes, servers and eggs the panel holds.
export const Route = createFileRoute('/_app/admin/')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(overviewQuery());
    }
  },
  component: AdminOverview,
});
