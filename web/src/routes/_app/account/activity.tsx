import { createFileRoute } from '@tanstack/react-router';
import { AccountActivityPage } from '@/features/activity/components/AccountActivityPage';
import { parseActivitySearch } from '@/features/activity/search-params';

// `/account/activity?event=&page=`: the account's own events; the filter and the page live in the address.
export const Route = createFileRoute('/_app/account/activity')({
  validateSearch: parseActivitySearch,
  component: function AccountActivityRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <AccountActivityPage search={search} onSearchChange={(next) => void navigate({ search: next })} />;
  },
});
