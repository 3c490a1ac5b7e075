import { createFileRoute } from '@tanstack/react-router';
import { ServerLayout } from '@/features/server/components/ServerLayout';
import { serverQuery } from '@/features/server/api';

// /server/$id/...: the server's name and tabs around each tab's route (index = console, files...).
export const Route = createFileRoute('/_app/server/$id')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(serverQuery(params.id));
  },
  component: function ServerRoute() {
    const { id } = Route.useParams();
    return <ServerLayout serverId={id} />;
  },
});
