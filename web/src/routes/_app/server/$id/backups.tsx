import { createFileRoute } from '@tanstack/react-router';
import { BackupsPage } from '@/features/backups/components/BackupsPage';
import { backupsQuery } from '@/features/backups/api';

export const Route = createFileRoute('/_app/server/$id/backups')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(backupsQuery(params.id));
  },
  component: function BackupsRoute() {
    const { id } = Route.useParams();
    return <BackupsPage key={id} serverId={id} />;
  },
});
