import { createFileRoute } from '@tanstack/react-router';
import { ApiKeysPage } from '@/features/account/components/ApiKeysPage';
import { apiKeysQuery, pterodactylKeysQuery } from '@/features/account/api';

// `/account/api-keys`: admin scopes are offered to administrators only.
export const Route = createFileRoute('/_app/account/api-keys')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(apiKeysQuery);
    void context.queryClient.prefetchQuery(pterodactylKeysQuery);
  },
  component: function ApiKeysRoute() {
    const { session } = Route.useRouteContext();
    return <ApiKeysPage admin={session.user.admin} />;
  },
});
