import { createFileRoute } from '@tanstack/react-router';
import { LocationsPage } from '@/features/admin-locations/components/LocationsPage';
import { locationsQuery } from '@/features/admin-locations/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/locations?create=true`: where nodes stand; `create` opens the new-location dialog (the overview's checklist links there).
export const Route = createFileRoute('/_app/admin/locations')({
  validateSearch: (search: Record<string, unknown>): { create?: true } => (search.create === true ? { create: true } : {}),
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('locations', 'read')) {
      void context.queryClient.prefetchQuery(locationsQuery());
    }
  },
  component: function AdminLocationsRoute() {
    return <LocationsPage startCreating={Route.useSearch().create === true} />;
  },
});
