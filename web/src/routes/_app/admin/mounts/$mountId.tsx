import { createFileRoute } from '@tanstack/react-router';
import { MountPage } from '@/features/admin-mounts/components/MountPage';
import { mountQuery } from '@/features/admin-mounts/api';
import { adminAccessFrom } from '@/features/auth/admin-access';

// `/admin/mounts/$mountId`: one mount with its eggs, nodes and servers.
export const Route = createFileRoute('/_app/admin/mounts/$mountId')({
  loader: ({ context, params }) => {
    if (adminAccessFrom(context.session.adminAccess).can('mounts', 'read')) {
      void context.queryClient.prefetchQuery(mountQuery(params.mountId));
    }
  },
  component: function AdminMountRoute() {
    const { mountId } = Route.useParams();
    return <MountPage key={mountId} mountId={mountId} />;
  },
});
