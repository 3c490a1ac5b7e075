import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '@/features/admin/components/AdminOverview';
import { overviewQuery } from '@/features/admin/api';
import { forAdmin } from '@/lib/route-data';

// `/admin`: how many users, nodes, servers and eggs the panel holds.
export const Route = createFileRoute('/_app/admin/')({
  loader: ({ context }) => forAdmin(context.session.user.admin, () => context.queryClient.ensureQueryData(overviewQuery())),
  component: AdminOverview,
});
