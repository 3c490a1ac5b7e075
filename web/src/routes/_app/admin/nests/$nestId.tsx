import { createFileRoute } from '@tanstack/react-router';
import { NestPage } from '@/features/admin-eggs/components/NestPage';
import { nestQuery } from '@/features/admin-eggs/api';
import { forAdmin, unlessNotFound } from '@/lib/route-data';

// `/admin/nests/$nestId`: a nest's eggs, and importing more.
export const Route = createFileRoute('/_app/admin/nests/$nestId')({
  loader: ({ context, params }) => forAdmin(context.session.user.admin, () => unlessNotFound(context.queryClient.ensureQueryData(nestQuery(params.nestId)))),
  component: function NestRoute() {
    const { nestId } = Route.useParams();
    return <NestPage key={nestId} nestId={nestId} />;
  },
});
