import { createFileRoute } from '@tanstack/react-router';
import { SubusersPage } from '@/features/subusers/components/SubusersPage';

export const Route = createFileRoute('/_app/server/$id/users')({
  component: function UsersRoute() {
    const { id } = Route.useParams();
    return <SubusersPage key={id} serverId={id} />;
  },
});
