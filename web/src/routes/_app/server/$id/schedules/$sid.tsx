import { createFileRoute } from '@tanstack/react-router';
import { ScheduleDetailPage } from '@/features/schedules/components/ScheduleDetailPage';

export const Route = createFileRoute('/_app/server/$id/schedules/$sid')({
  component: function ScheduleRoute() {
    const { id, sid } = Route.useParams();
    return <ScheduleDetailPage key={`${id}/${sid}`} serverId={id} scheduleId={sid} />;
  },
});
