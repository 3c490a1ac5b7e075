import { createFileRoute } from '@tanstack/react-router';
import { webhookQuery } from '@/features/webhooks/api';
import { WebhookPage } from '@/features/webhooks/components/WebhookPage';
import { adminAccessFrom } from '@/features/auth/admin-access';

const ADMIN = { kind: 'admin' } as const;

// `/admin/webhooks/$webhookId`: one webhook, its test button and its deliveries.
export const Route = createFileRoute('/_app/admin/webhooks/$webhookId')({
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('webhooks', 'read')) {
      void context.queryClient.prefetchQuery(webhookQuery(ADMIN, params.webhookId));
    }
  },
  component: function AdminWebhookRoute() {
    const { webhookId } = Route.useParams();
    return <WebhookPage key={webhookId} scope={ADMIN} webhookId={webhookId} />;
  },
});
