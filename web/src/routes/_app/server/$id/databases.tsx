import { createFileRoute } from '@tanstack/react-router';
import { DatabasesPage } from '@/features/databases/components/DatabasesPage';

export const Route = createFileRoute('/_app/server/$id/databases')({
  component: function DatabasesRoute() {
    const { id } = Route.useParams();
    return <DatabasesPage key={id} serverId={id} />;
  },
});
