import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '@/components/NotFoundPage';
import { AdminLayout } from '@/features/admin/components/AdminLayout';

// /admin/...: the administration, for administrators only. Anyone else meets "page not found" (the
// navigation does not offer it to them, and the API answers 403 to every admin call anyway).
export const Route = createFileRoute('/_app/admin')({
  component: function AdminRoute() {
    const { session } = Route.useRouteContext();
    return session.user.admin ? <AdminLayout /> : <NotFoundPage />;
  },
});
