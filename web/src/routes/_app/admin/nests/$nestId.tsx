import { createFileRoute } from '@tanstack/react-router';
import { NestPage } from '@/features/admin-eggs/components/NestPage';
import { nestQuery } from '@/features/admin-eggs/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/nests/$nestId`: a nest's eggs, and importing more.
export const Route = createFileRoute('/_app/admin/nests/$nestId')({
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('eggs', 'read')) {
      void context.queryClient.prefetchQuery(nestQuery(params.nestId));
    }
  },
  component: function NestRoute() {
    const { nestId } = Route.useParams();
    return <NestPage key={nestId} nestId={nestId} />;
  },
});
