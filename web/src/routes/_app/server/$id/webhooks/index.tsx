import { createFileRoute } from '@tanstack/react-router';
import { WebhooksPage } from '@/features/webhooks/components/WebhooksPage';

// `/server/$id/webhooks`: the server's own webhooks (permission server.webhook).
export const Route = createFileRoute('/_app/server/$id/webhooks/')({
  component: function ServerWebhooksRoute() {
    const { id } = Route.useParams();
    return <WebhooksPage key={id} scope={{ kind: 'server', serverId: id }} />;
  },
});
