import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '@/features/auth/components/ResetPasswordPage';

// The path of the link in the reset e-mail (RESET_PAGE_PATH in src/modules/password-reset/password-reset-mails.ts).
export const Route = createFileRoute('/auth/password/reset')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' ? { token: search.token } : {}),
  component: function ResetRoute() {
    const { token } = Route.useSearch();
    return <ResetPasswordPage token={token} />;
  },
});
