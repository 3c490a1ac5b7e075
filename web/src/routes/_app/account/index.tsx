import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { ProfilePage } from '@/features/account/components/ProfilePage';
import { sessionQuery } from '@/features/auth/api';

// `/account`: profile, e-mail, password and two-factor sign-in. A change to the account (e-mail,
// two-factor) reloads the signed-in user the app shell shows.
export const Route = createFileRoute('/_app/account/')({
  component: function AccountRoute() {
    const queryClient = useQueryClient();
    const router = useRouter();
    return (
      <ProfilePage
        onAccountChanged={() => {
          void queryClient.refetchQueries({ queryKey: sessionQuery.queryKey }).then(() => router.invalidate());
        }}
      />
    );
  },
});
