import { createFileRoute } from '@tanstack/react-router';
import { ServerSettingsPage } from '@/features/server-settings/components/ServerSettingsPage';

export const Route = createFileRoute('/_app/server/$id/settings')({
  component: function SettingsRoute() {
    const { id } = Route.useParams();
    return <ServerSettingsPage key={id} serverId={id} />;
  },
});
