import { createFileRoute } from '@tanstack/react-router';
import { BackupsPage } from '@/features/backups/components/BackupsPage';

export const Route = createFileRoute('/_app/server/$id/backups')({
  component: function BackupsRoute() {
    const { id } = Route.useParams();
    return <BackupsPage key={id} serverId={id} />;
  },
});
