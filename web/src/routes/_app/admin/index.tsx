import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '@/features/admin/components/AdminOverview';

// `/admin`: how many users, nodes, servers and eggs the panel holds.
export const Route = createFileRoute('/_app/admin/')({
  component: AdminOverview,
});
