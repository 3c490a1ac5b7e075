import { Alert, Button, Skeleton, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { meQuery } from '@/features/account/api';
import { TwoFactorCard } from '@/features/account/components/TwoFactorCard';
import { PasskeysCard } from '@/features/passkeys/components/PasskeysCard';
import { passkeysSupported } from '@/features/passkeys/webauthn';
import { useSignOut } from '@/features/auth/api';
import { AuthFrame } from '@/features/auth/components/AuthCard';
import { notifyError } from '@/lib/notify';

/**
 * What a user the two-factor policy holds sees instead of the panel (every other route answers 403
 * TWO_FACTOR_SETUP_REQUIRED until then): why, and the account's two-factor setup and passkeys. `onDone`
 * runs once a second factor is on (its recovery codes saved), or a passkey added.
 */
export const TwoFactorSetupPage = ({ onDone }: { onDone: () => void }) => {
  const { t } = useTranslation();
  const me = useQuery(meQuery);
  const signOut = useSignOut();
  const body = (() => {
    if (me.isError) {
      return <ErrorState error={me.error} title={t('account.loadError')} onRetry={() => void me.refetch()} />;
    }
    if (!me.data) {
      return <Skeleton h={160} radius="md" />;
    }
    // Either second factor lifts the hold: an authenticator app, or a passkey where passkeys can work here.
    return (
      <>
        <TwoFactorCard account={me.data} onChanged={onDone} />
        {passkeysSupported() ? <PasskeysCard account={me.data} onAdded={onDone} /> : null}
      </>
    );
  })();
  return (
    <AuthFrame
      width={640}
      actions={
        <Button
          variant="subtle"
          size="compact-sm"
          loading={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onError: (error) => notifyError(error) })}
        >
          {t('user.signOut')}
        </Button>
      }
    >
      <Title order={1} size="h2">
        {t('account.twoFactorRequired.title')}
      </Title>
      <Alert color="blue" icon={<IconShieldLock size={18} />}>
        {t('account.twoFactorRequired.text')}
      </Alert>
      {body}
    </AuthFrame>
  );
};
