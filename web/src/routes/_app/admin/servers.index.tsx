import { createFileRoute } from '@tanstack/react-router';
import { AdminServersPage } from '@/features/admin-servers/components/AdminServersPage';
import { parseAdminServersSearch } from '@/features/admin-servers/search-params';

// `/admin/servers`: every server; search and page live in the URL (?q=&page=).
export const Route = createFileRoute('/_app/admin/servers/')({
  validateSearch: parseAdminServersSearch,
  component: function AdminServersRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <AdminServersPage search={search} onSearchChange={(next) => void navigate({ search: next, replace: true })} />;
  },
});
