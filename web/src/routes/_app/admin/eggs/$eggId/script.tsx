import { createFileRoute } from '@tanstack/react-router';
import { EggScriptPage } from '@/features/admin-eggs/components/EggScriptPage';

export const Route = createFileRoute('/_app/admin/eggs/$eggId/script')({
  component: function EggScriptRoute() {
    const { eggId } = Route.useParams();
    return <EggScriptPage eggId={eggId} />;
  },
});
