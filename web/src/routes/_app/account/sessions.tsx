import { createFileRoute } from '@tanstack/react-router';
import { SessionsPage } from '@/features/account/components/SessionsPage';

export const Route = createFileRoute('/_app/account/sessions')({
  component: SessionsPage,
});
