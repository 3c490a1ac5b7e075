import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '@/features/auth/components/SignInPage';

export const Route = createFileRoute('/auth/login')({
  validateSearch: (search: Record<string, unknown>): { next?: string } => (typeof search.next === 'string' ? { next: search.next } : {}),
  component: function LoginRoute() {
    const { next } = Route.useSearch();
    return <SignInPage next={next} />;
  },
});
