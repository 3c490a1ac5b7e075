import { createFileRoute } from '@tanstack/react-router';
import { FilesPage } from '@/features/files/components/FilesPage';
import { fileListQuery } from '@/features/files/api';
import { normalizePath } from '@/features/files/paths';

// `?path=` keeps the directory in the address, so Back and reload return to it.
export const Route = createFileRoute('/_app/server/$id/files/')({
  validateSearch: (search: Record<string, unknown>): { path?: string } => (typeof search.path === 'string' && search.path !== '' ? { path: search.path } : {}),
  loaderDeps: ({ search }) => ({ path: search.path }),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(fileListQuery(params.id, normalizePath(deps.path)));
  },
  component: function FilesRoute() {
    const { id } = Route.useParams();
    const { path } = Route.useSearch();
    return <FilesPage key={id} serverId={id} path={path} />;
  },
});
