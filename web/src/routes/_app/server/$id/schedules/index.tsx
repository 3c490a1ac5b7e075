import { createFileRoute } from '@tanstack/react-router';
import { SchedulesPage } from '@/features/schedules/components/SchedulesPage';

export const Route = createFileRoute('/_app/server/$id/schedules/')({
  component: function SchedulesRoute() {
    const { id } = Route.useParams();
    return <SchedulesPage key={id} serverId={id} />;
  },
});
