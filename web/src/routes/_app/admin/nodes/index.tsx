import { createFileRoute } from '@tanstack/react-router';
import { NodesPage } from '@/features/admin-nodes/components/NodesPage';
import { nodesQuery } from '@/features/admin-nodes/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/nodes?create=true`: every node and its daemon's health; `create` opens the new-node dialog (the overview's checklist links there).
export const Route = createFileRoute('/_app/admin/nodes/')({
  validateSearch: (search: Record<string, unknown>): { create?: true } => (search.create === true ? { create: true } : {}),
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('nodes', 'read')) {
      void context.queryClient.prefetchQuery(nodesQuery());
    }
  },
  component: function AdminNodesRoute() {
    return <NodesPage startCreating={Route.useSearch().create === true} />;
  },
});
