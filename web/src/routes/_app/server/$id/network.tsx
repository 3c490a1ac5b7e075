import { createFileRoute } from '@tanstack/react-router';
import { NetworkPage } from '@/features/network/components/NetworkPage';
import { allocationsQuery } from '@/features/network/api';

export const Route = createFileRoute('/_app/server/$id/network')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(allocationsQuery(params.id));
  },
  component: function NetworkRoute() {
    const { id } = Route.useParams();
    return <NetworkPage key={id} serverId={id} />;
  },
});
