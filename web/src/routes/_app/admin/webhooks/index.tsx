import { createFileRoute } from '@tanstack/react-router';
import { webhooksQuery } from '@/features/webhooks/api';
import { WebhooksPage } from '@/features/webhooks/components/WebhooksPage';
import { adminAccessFrom } from '@/features/auth/admin-access';

const ADMIN = { kind: 'admin' } as const;

// `/admin/webhooks`: endpoints told about every event of the panel.
export const Route = createFileRoute('/_app/admin/webhooks/')({
  loader: ({ context }) => {
    if (adminAccessFrom(context.session.adminAccess).can('webhooks', 'read')) {
      void context.queryClient.prefetchQuery(webhooksQuery(ADMIN));
    }
  },
  component: function AdminWebhooksRoute() {
    return <WebhooksPage scope={ADMIN} />;
  },
});
