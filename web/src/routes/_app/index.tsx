import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '@/features/dashboard/components/DashboardPage';
import { parseDashboardSearch } from '@/features/dashboard/search-params';

// `/`: the server dashboard; tab, search and page live in the URL (?tab=&q=&page=).
export const Route = createFileRoute('/_app/')({
  validateSearch: parseDashboardSearch,
  component: function DashboardRoute() {
    const search = Route.useSearch();
    const { session } = Route.useRouteContext();
    const navigate = Route.useNavigate();
    return <DashboardPage search={search} admin={session.user.admin} selfId={session.user.id} onSearchChange={(next) => void navigate({ search: next, replace: true })} />;
  },
});
