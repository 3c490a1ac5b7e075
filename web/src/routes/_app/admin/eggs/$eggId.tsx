import { createFileRoute } from '@tanstack/react-router';
import { EggLayout } from '@/features/admin-eggs/components/EggLayout';
import { eggQuery } from '@/features/admin-eggs/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/eggs/$eggId/...`: an egg, with its tabs (configuration, variables, install script).
export const Route = createFileRoute('/_app/admin/eggs/$eggId')({
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('eggs', 'read')) {
      void context.queryClient.prefetchQuery(eggQuery(params.eggId));
    }
  },
  component: function EggRoute() {
    const { eggId } = Route.useParams();
    return <EggLayout key={eggId} eggId={eggId} />;
  },
});
