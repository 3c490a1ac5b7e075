import { createFileRoute } from '@tanstack/react-router';
import { SessionsPage } from '@/features/account/components/SessionsPage';
import { sessionsQuery } from '@/features/account/api';

export const Route = createFileRoute('/_app/account/sessions')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(sessionsQuery);
  },
  component: SessionsPage,
});
