import { createFileRoute } from '@tanstack/react-router';
import { NestsPage } from '@/features/admin-eggs/components/NestsPage';
import { nestsQuery } from '@/features/admin-eggs/api';
import { forAdmin } from '@/lib/route-data';

// `/admin/nests`: the nests, each with its egg count.
export const Route = createFileRoute('/_app/admin/nests/')({
  loader: ({ context }) => forAdmin(context.session.user.admin, () => context.queryClient.ensureQueryData(nestsQuery(1))),
  component: NestsPage,
});
