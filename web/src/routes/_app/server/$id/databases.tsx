import { createFileRoute } from '@tanstack/react-router';
import { DatabasesPage } from '@/features/databases/components/DatabasesPage';
import { databasesQuery } from '@/features/databases/api';

export const Route = createFileRoute('/_app/server/$id/databases')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(databasesQuery(params.id));
  },
  component: function DatabasesRoute() {
    const { id } = Route.useParams();
    return <DatabasesPage key={id} serverId={id} />;
  },
});
