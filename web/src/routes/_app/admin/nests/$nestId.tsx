import { createFileRoute } from '@tanstack/react-router';
import { NestPage } from '@/features/admin-eggs/components/NestPage';
import { nestQuery } from '@/features/admin-eggs/api';

// `/admin/nests/$nestId`: a nest's eggs, and importing more.
export const Route = createFileRoute('/_app/admin/nests/$nestId')({
  loader: ({ context, params }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(nestQuery(params.nestId));
    }
  },
  component: function NestRoute() {
    const { nestId } = Route.useParams();
    return <NestPage key={nestId} nestId={nestId} />;
  },
});
