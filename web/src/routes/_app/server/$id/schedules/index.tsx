import { createFileRoute } from '@tanstack/react-router';
import { SchedulesPage } from '@/features/schedules/components/SchedulesPage';
import { schedulesQuery } from '@/features/schedules/api';

export const Route = createFileRoute('/_app/server/$id/schedules/')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(schedulesQuery(params.id));
  },
  component: function SchedulesRoute() {
    const { id } = Route.useParams();
    return <SchedulesPage key={id} serverId={id} />;
  },
});
