import { createFileRoute } from '@tanstack/react-router';
import { ScheduleDetailPage } from '@/features/schedules/components/ScheduleDetailPage';
import { scheduleQuery } from '@/features/schedules/api';

export const Route = createFileRoute('/_app/server/$id/schedules/$sid')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(scheduleQuery(params.id, params.sid));
  },
  component: function ScheduleRoute() {
    const { id, sid } = Route.useParams();
    return <ScheduleDetailPage key={`${id}/${sid}`} serverId={id} scheduleId={sid} />;
  },
});
