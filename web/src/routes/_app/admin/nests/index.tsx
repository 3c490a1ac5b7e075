import { createFileRoute } from '@tanstack/react-router';
import { NestsPage } from '@/features/admin-eggs/components/NestsPage';

// `/admin/nests`: the nests, each with its egg count.
export const Route = createFileRoute('/_app/admin/nests/')({
  component: NestsPage,
});
