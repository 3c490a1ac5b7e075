import { createFileRoute } from '@tanstack/react-router';
import { NestPage } from '@/features/admin-eggs/components/NestPage';

// `/admin/nests/$nestId`: a nest's eggs, and importing more.
export const Route = createFileRoute('/_app/admin/nests/$nestId')({
  component: function NestRoute() {
    const { nestId } = Route.useParams();
    return <NestPage key={nestId} nestId={nestId} />;
  },
});
