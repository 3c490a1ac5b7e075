import { createFileRoute } from '@tanstack/react-router';
import { NodesPage } from '@/features/admin-nodes/components/NodesPage';
import { nodesQuery } from '@/features/admin-nodes/api';

// `/admin/nodes?create=true`: every node and its daemon's health; `create` opens the new-node dialog (the overview's checklist links there).
export const Route = createFileRoute('/_app/admin/nodes/')({
  validateSearch: (search: Record<string, unknown>): { create?: true } => (search.create === true ? { create: true } : {}),
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(nodesQuery());
    }
  },
  component: function AdminNodesRoute() {
    return <NodesPage startCreating={Route.useSearch().create === true} />;
  },
});
