import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '@/features/account/components/ApiKeysPage';

// `/account/api-keys`: admin scopes are offered to administrators only.
export const Route = createFileRoute('/_app/account/api-keys')({
  component: function ApiKeysRoute() {
    const { session } = Route.useRouteContext();
    return <ApiKeysPage admin={session.user.admin} />;
  },
});
