import { createFileRoute } from '@tanstack/react-router';
import { EditorPage } from '@/features/files/components/EditorPage';

// `?path=` names the file; `&new=true` for one that does not exist yet. Its own chunk (with CodeMirror).
export const Route = createFileRoute('/_app/server/$id/files/edit')({
  validateSearch: (search: Record<string, unknown>): { path: string; new?: boolean } => ({
    path: typeof search.path === 'string' ? search.path : '/',
    ...(search.new === true || search.new === 'true' ? { new: true } : {}),
  }),
  component: function EditRoute() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    return <EditorPage key={`${id}:${search.path}`} serverId={id} path={search.path} isNew={search.new} />;
  },
});
