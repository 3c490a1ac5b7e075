import { createFileRoute } from '@tanstack/react-router';
import { EggConfigPage } from '@/features/admin-eggs/components/EggConfigPage';

export const Route = createFileRoute('/_app/admin/eggs/$eggId/')({
  component: function EggConfigRoute() {
    const { eggId } = Route.useParams();
    return <EggConfigPage eggId={eggId} />;
  },
});
