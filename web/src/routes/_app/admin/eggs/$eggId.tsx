import { createFileRoute } from '@tanstack/react-router';
import { EggLayout } from '@/features/admin-eggs/components/EggLayout';

// `/admin/eggs/$eggId/...`: an egg, with its tabs (configuration, variables, install script).
export const Route = createFileRoute('/_app/admin/eggs/$eggId')({
  component: function EggRoute() {
    const { eggId } = Route.useParams();
    return <EggLayout key={eggId} eggId={eggId} />;
  },
});
