import { createFileRoute } from '@tanstack/react-router';
import { SubusersPage } from '@/features/subusers/components/SubusersPage';
import { subusersQuery } from '@/features/subusers/api';

export const Route = createFileRoute('/_app/server/$id/users')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(subusersQuery(params.id));
  },
  component: function UsersRoute() {
    const { id } = Route.useParams();
    return <SubusersPage key={id} serverId={id} />;
  },
});
