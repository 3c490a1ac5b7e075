import { createFileRoute } from '@tanstack/react-router';
import { AdminServerPage } from '@/features/admin-servers/components/AdminServerPage';
import { parseServerTab } from '@/features/admin-servers/search-params';
import { adminServerQuery } from '@/features/admin-servers/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/servers/$sid?tab=`: one server's administration (details, build, startup, manage).
export const Route = createFileRoute('/_app/admin/servers/$sid')({
  validateSearch: parseServerTab,
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('servers', 'read')) {
      void context.queryClient.prefetchQuery(adminServerQuery(params.sid));
    }
  },
  component: function AdminServerRoute() {
    const { sid } = Route.useParams();
    const { tab } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <AdminServerPage
        key={sid}
        serverId={sid}
        tab={tab ?? 'details'}
        onTabChange={(next) => void navigate({ search: next === 'details' ? {} : { tab: next }, replace: true })}
        onDeleted={() => void navigate({ to: '/admin/servers' })}
      />
    );
  },
});
