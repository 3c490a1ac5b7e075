import { createFileRoute } from '@tanstack/react-router';
import { FilesPage } from '@/features/files/components/FilesPage';

// `?path=` keeps the directory in the address, so Back and reload return to it.
export const Route = createFileRoute('/_app/server/$id/files/')({
  validateSearch: (search: Record<string, unknown>): { path?: string } => (typeof search.path === 'string' && search.path !== '' ? { path: search.path } : {}),
  component: function FilesRoute() {
    const { id } = Route.useParams();
    const { path } = Route.useSearch();
    return <FilesPage key={id} serverId={id} path={path} />;
  },
});
