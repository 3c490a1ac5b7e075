import { createFileRoute } from '@tanstack/react-router';
import { webhooksQuery } from '@/features/webhooks/api';
import { WebhooksPage } from '@/features/webhooks/components/WebhooksPage';

const ADMIN = { kind: 'admin' } as const;

// `/admin/webhooks`: endpoints told about every event of the panel.
export const Route = createFileRoute('/_app/admin/webhooks/')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(webhooksQuery(ADMIN));
    }
  },
  component: function AdminWebhooksRoute() {
    return <WebhooksPage scope={ADMIN} />;
  },
});
