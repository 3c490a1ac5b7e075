import { createFileRoute } from '@tanstack/react-router';
import { EggVariablesPage } from '@/features/admin-eggs/components/EggVariablesPage';

export const Route = createFileRoute('/_app/admin/eggs/$eggId/variables')({
  component: function EggVariablesRoute() {
    const { eggId } = Route.useParams();
    return <EggVariablesPage eggId={eggId} />;
  },
});
