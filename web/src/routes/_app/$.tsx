import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '@/components/NotFoundPage';

// Any path no other signed-in route matches: "page not found" inside the app shell.
export const Route = createFileRoute('/_app/$')({
  component: NotFoundPage,
});
