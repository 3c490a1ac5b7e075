import { createFileRoute } from '@tanstack/react-router';
import { UserPage } from '@/features/admin-users/components/UserPage';
import { userQuery } from '@/features/admin-users/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/users/$uid`: one account.
export const Route = createFileRoute('/_app/admin/users/$uid')({
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('users', 'read')) {
      void context.queryClient.prefetchQuery(userQuery(params.uid));
    }
  },
  component: function AdminUserRoute() {
    const { uid } = Route.useParams();
    const { session } = Route.useRouteContext();
    return <UserPage key={uid} userId={uid} selfId={session.user.id} />;
  },
});
