import { createFileRoute } from '@tanstack/react-router';
import { NetworkPage } from '@/features/network/components/NetworkPage';

export const Route = createFileRoute('/_app/server/$id/network')({
  component: function NetworkRoute() {
    const { id } = Route.useParams();
    return <NetworkPage key={id} serverId={id} />;
  },
});
