import { createFileRoute } from '@tanstack/react-router';
import { NodesPage } from '@/features/admin-nodes/components/NodesPage';

// `/admin/nodes`: every node and its daemon's health.
export const Route = createFileRoute('/_app/admin/nodes/')({
  component: NodesPage,
});
