import { createFileRoute } from '@tanstack/react-router';
import { NodesPage } from '@/features/admin-nodes/components/NodesPage';
import { nodesQuery } from '@/features/admin-nodes/api';
import { forAdmin } from '@/lib/route-data';

// `/admin/nodes?create=true`: every node and its daemon's health; `create` opens the new-node dialog (the overview's checklist links there).
export const Route = createFileRoute('/_app/admin/nodes/')({
  validateSearch: (search: Record<string, unknown>): { create?: true } => (search.create === true ? { create: true } : {}),
  loader: ({ context }) => forAdmin(context.session.user.admin, () => context.queryClient.ensureQueryData(nodesQuery())),
  component: function AdminNodesRoute() {
    return <NodesPage startCreating={Route.useSearch().create === true} />;
  },
});
