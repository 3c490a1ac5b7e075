import { createFileRoute } from '@tanstack/react-router';
import { CreateServerWizard } from '@/features/admin-servers/components/CreateServerWizard';

// `/admin/servers/new`: the creation wizard.
export const Route = createFileRoute('/_app/admin/servers/new')({
  component: function CreateServerRoute() {
    const navigate = Route.useNavigate();
    return <CreateServerWizard onCreated={(id) => void navigate({ to: '/admin/servers/$sid', params: { sid: id } })} />;
  },
});
