import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ConsolePage } from '@/features/console/components/ConsolePage';
import { serverQuery } from '@/features/server/api';

// /server/$id: the console tab. The layout has loaded the details already; xterm and uPlot come
// with this route's chunk only.
export const Route = createFileRoute('/_app/server/$id/')({
  component: function ConsoleRoute() {
    const { id } = Route.useParams();
    const { data } = useSuspenseQuery(serverQuery(id));
    return <ConsolePage key={data.uuid} server={data} />;
  },
});
