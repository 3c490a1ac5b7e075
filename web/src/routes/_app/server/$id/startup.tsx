import { createFileRoute } from '@tanstack/react-router';
import { StartupPage } from '@/features/startup/components/StartupPage';
import { startupQuery } from '@/features/startup/api';

export const Route = createFileRoute('/_app/server/$id/startup')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(startupQuery(params.id));
  },
  component: function StartupRoute() {
    const { id } = Route.useParams();
    return <StartupPage key={id} serverId={id} />;
  },
});
