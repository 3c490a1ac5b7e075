import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '@/components/NotFoundPage';
import { RolesPage } from '@/features/admin-roles/components/RolesPage';
import { rolesQuery } from '@/features/admin-roles/api';
import { adminAccessFrom, useAdminAccess } from '@/features/auth/admin-access';

// `/admin/roles`: administrator roles, for full administrators only (the API answers 403 to anyone else).
export const Route = createFileRoute('/_app/admin/roles')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).full) {
      void context.queryClient.prefetchQuery(rolesQuery());
    }
  },
  component: function AdminRolesRoute() {
    return useAdminAccess().full ? <RolesPage /> : <NotFoundPage />;
  },
});
