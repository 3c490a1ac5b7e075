import { createFileRoute } from '@tanstack/react-router';
import { LocationsPage } from '@/features/admin-locations/components/LocationsPage';

// `/admin/locations`: where nodes stand.
export const Route = createFileRoute('/_app/admin/locations')({
  component: LocationsPage,
});
