import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '@/features/auth/components/SignInPage';

export const Route = createFileRoute('/auth/login')({
  // `error`: the code a sign-in provider's callback refused with (docs/api.md#single-sign-on).
  validateSearch: (search: Record<string, unknown>): { next?: string; error?: string } => ({
    ...(typeof search.next === 'string' ? { next: search.next } : {}),
    ...(typeof search.error === 'string' && /^[A-Z0-9_]{1,64}$/.test(search.error) ? { error: search.error } : {}),
  }),
  component: function LoginRoute() {
    const { next, error } = Route.useSearch();
    return <SignInPage next={next} providerError={error} />;
  },
});
