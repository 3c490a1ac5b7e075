import { createFileRoute } from '@tanstack/react-router';
import { NestsPage } from '@/features/admin-eggs/components/NestsPage';
import { nestsQuery } from '@/features/admin-eggs/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/nests`: the nests, each with its egg count.
export const Route = createFileRoute('/_app/admin/nests/')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('eggs', 'read')) {
      void context.queryClient.prefetchQuery(nestsQuery(1));
    }
  },
  component: NestsPage,
});
