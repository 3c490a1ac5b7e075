import { createFileRoute } from '@tanstack/react-router';
import { StartupPage } from '@/features/startup/components/StartupPage';

export const Route = createFileRoute('/_app/server/$id/startup')({
  component: function StartupRoute() {
    const { id } = Route.useParams();
    return <StartupPage key={id} serverId={id} />;
  },
});
