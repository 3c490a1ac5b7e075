import { createFileRoute } from '@tanstack/react-router';
import { NodePage } from '@/features/admin-nodes/components/NodePage';
import { NODE_TABS, type NodeTab } from '@/features/admin-nodes/node-tabs';
import { nodeQuery } from '@/features/admin-nodes/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/nodes/$nid?tab=`: one node; the tab lives in the address.
export const Route = createFileRoute('/_app/admin/nodes/$nid')({
  validateSearch: (search: Record<string, unknown>): { tab?: NodeTab } => {
    const tab = NODE_TABS.find((x) => x === search.tab);
    return tab && tab !== 'settings' ? { tab } : {};
  },
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('nodes', 'read')) {
      void context.queryClient.prefetchQuery(nodeQuery(params.nid));
    }
  },
  component: function AdminNodeRoute() {
    const { nid } = Route.useParams();
    const { tab } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <NodePage key={nid} nodeId={nid} tab={tab ?? 'settings'} onTabChange={(next) => void navigate({ search: next === 'settings' ? {} : { tab: next }, replace: true })} />;
  },
});
