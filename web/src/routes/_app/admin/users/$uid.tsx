import { createFileRoute } from '@tanstack/react-router';
import { UserPage } from '@/features/admin-users/components/UserPage';

// `/admin/users/$uid`: one account.
export const Route = createFileRoute('/_app/admin/users/$uid')({
  component: function AdminUserRoute() {
    const { uid } = Route.useParams();
    const { session } = Route.useRouteContext();
    return <UserPage key={uid} userId={uid} selfId={session.user.id} />;
  },
});
