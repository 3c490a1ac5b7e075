import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '@/components/NotFoundPage';
import { AdminLayout } from '@/features/admin/components/AdminLayout';
import { useAdminAccess } from '@/features/auth/admin-access';

// /admin/...: the administration, for full administrators and role holders (each sees the tabs its
// roles grant). Anyone else meets "page not found" (the navigation does not offer it to them, and the
// API answers 403 to every admin call anyway).
export const Route = createFileRoute('/_app/admin')({
  component: function AdminRoute() {
    return useAdminAccess().any ? <AdminLayout /> : <NotFoundPage />;
  },
});
