import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ApiKeysPage } from '@/features/account/components/ApiKeysPage';
import { apiKeysQuery, heldAdminScopes, pterodactylKeysQuery } from '@/features/account/api';
import { useAdminAccess } from '@/features/auth/admin-access';

// `/account/api-keys`: admin scopes are offered to administrators, each only if they hold it.
export const Route = createFileRoute('/_app/account/api-keys')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(apiKeysQuery);
    void context.queryClient.prefetchQuery(pterodactylKeysQuery);
  },
  component: function ApiKeysRoute() {
    const access = useAdminAccess();
    const adminScopes = useMemo(() => heldAdminScopes(access), [access]);
    return <ApiKeysPage adminScopes={adminScopes} />;
  },
});
