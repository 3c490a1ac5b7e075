import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { AuditFilter } from '@/features/admin-audit/api';
import { AuditPage } from '@/features/admin-audit/components/AuditPage';

// `/admin/audit?action=&actorId=&page=`: the filters and the page live in the address.
export const Route = createFileRoute('/_app/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditFilter => ({
    ...(typeof search.action === 'string' && search.action !== '' ? { action: search.action } : {}),
    ...(typeof search.actorId === 'string' && /^\d+$/.test(search.actorId) ? { actorId: search.actorId } : {}),
    ...(typeof search.actorId === 'number' && Number.isInteger(search.actorId) ? { actorId: String(search.actorId) } : {}),
    ...(typeof search.page === 'number' && Number.isInteger(search.page) && search.page > 1 ? { page: search.page } : {}),
  }),
  component: function AdminAuditRoute() {
    const filter = Route.useSearch();
    const navigate = Route.useNavigate();
    const onFilterChange = useCallback((next: AuditFilter) => void navigate({ search: next }), [navigate]);
    return <AuditPage filter={filter} onFilterChange={onFilterChange} />;
  },
});
