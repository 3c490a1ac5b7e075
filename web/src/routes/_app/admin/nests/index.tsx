import { createFileRoute } from '@tanstack/react-router';
import { NestsPage } from '@/features/admin-eggs/components/NestsPage';
import { nestsQuery } from '@/features/admin-eggs/api';

// `/admin/nests`: the nests, each with its egg count.
export const Route = createFileRoute('/_app/admin/nests/')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(nestsQuery(1));
    }
  },
  component: NestsPage,
});
