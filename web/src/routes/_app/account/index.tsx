import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { ProfilePage } from '@/features/account/components/ProfilePage';
import { sessionQuery } from '@/features/auth/api';

// `/account`: profile, e-mail, password and two-factor sign-in. A change to the account (e-mail,
// two-factor) reloads the signed-in user the app shell shows.
export const Route = createFileRoute('/_app/account/')({
  // What a sign-in provider's callback said of a link: `linked=<provider id>` or `error=<code>`.
  validateSearch: (search: Record<string, unknown>): { linked?: string; error?: string } => ({
    ...(typeof search.linked === 'string' || typeof search.linked === 'number' ? { linked: String(search.linked) } : {}),
    ...(typeof search.error === 'string' && /^[A-Z0-9_]{1,64}$/.test(search.error) ? { error: search.error } : {}),
  }),
  component: function AccountRoute() {
    const queryClient = useQueryClient();
    const router = useRouter();
    const { linked, error } = Route.useSearch();
    return (
      <ProfilePage
        linked={linked}
        linkError={error}
        onAccountChanged={() => {
          void queryClient.refetchQueries({ queryKey: sessionQuery.queryKey }).then(() => router.invalidate());
        }}
      />
    );
  },
});
