import { createFileRoute } from '@tanstack/react-router';
import { ActivityPage } from '@/features/activity/components/ActivityPage';
import { parseActivitySearch } from '@/features/activity/search-params';

// `?event=&page=` keep the filter and the page in the address, so Back and reload return to them.
export const Route = createFileRoute('/_app/server/$id/activity')({
  validateSearch: parseActivitySearch,
  component: function ActivityRoute() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <ActivityPage key={id} serverId={id} search={search} onSearchChange={(next) => void navigate({ search: next })} />;
  },
});
