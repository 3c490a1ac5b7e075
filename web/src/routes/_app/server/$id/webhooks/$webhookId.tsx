import { createFileRoute } from '@tanstack/react-router';
import { WebhookPage } from '@/features/webhooks/components/WebhookPage';

// `/server/$id/webhooks/$webhookId`: one of the server's webhooks and its deliveries.
export const Route = createFileRoute('/_app/server/$id/webhooks/$webhookId')({
  component: function ServerWebhookRoute() {
    const { id, webhookId } = Route.useParams();
    return <WebhookPage key={`${id}/${webhookId}`} scope={{ kind: 'server', serverId: id }} webhookId={webhookId} />;
  },
});
