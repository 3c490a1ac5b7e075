import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { UsersSearch } from '@/features/admin-users/components/UsersPage';
import { UsersPage } from '@/features/admin-users/components/UsersPage';

// `/admin/users?q=&page=`: the search and the page live in the address, so Back and reload keep them.
export const Route = createFileRoute('/_app/admin/users/')({
  validateSearch: (search: Record<string, unknown>): UsersSearch & { create?: true } => ({
    ...(typeof search.q === 'string' && search.q !== '' ? { q: search.q } : {}),
    ...(typeof search.page === 'number' && Number.isInteger(search.page) && search.page > 1 ? { page: search.page } : {}),
    // Opens the new-user dialog (the overview's checklist links here).
    ...(search.create === true ? { create: true as const } : {}),
  }),
  component: function AdminUsersRoute() {
    const { create, ...search } = Route.useSearch();
    const navigate = Route.useNavigate();
    const onSearchChange = useCallback((next: UsersSearch) => void navigate({ search: next, replace: true }), [navigate]);
    return <UsersPage search={search} onSearchChange={onSearchChange} startCreating={create === true} />;
  },
});
