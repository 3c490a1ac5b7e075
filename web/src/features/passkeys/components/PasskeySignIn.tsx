import { Button, Divider, Stack } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { usePasskeySecondFactor, usePasskeySignIn } from '@/features/passkeys/api';
import { isCancelled, passkeysSupported } from '@/features/passkeys/webauthn';

/** Under the password form: sign in with a passkey alone (the browser offers this site's passkeys). Nothing where the browser has no WebAuthn. */
export const PasskeySignInButton = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const { t } = useTranslation();
  const signIn = usePasskeySignIn();
  if (!passkeysSupported()) {
    return null;
  }
  return (
    <Stack gap="md">
      <Divider label={t('auth.passkey.or')} labelPosition="center" />
      <FormError error={isCancelled(signIn.error) ? null : signIn.error} />
      <Button variant="default" leftSection={<IconFingerprint size={18} aria-hidden />} loading={signIn.isPending} onClick={() => signIn.mutate(undefined, { onSuccess: onSignedIn })} fullWidth>
        {t('auth.passkey.signIn')}
      </Button>
    </Stack>
  );
};

/** In the step after the password: answer the challenge with one of the account's passkeys instead of a code. */
export const PasskeyStepButton = ({ challenge, onSignedIn, primary = false }: { challenge: string; onSignedIn: () => void; primary?: boolean }) => {
  const { t } = useTranslation();
  const step = usePasskeySecondFactor();
  if (!passkeysSupported()) {
    return null;
  }
  return (
    <Stack gap="md">
      <FormError error={isCancelled(step.error) ? null : step.error} />
      <Button
        variant={primary ? 'filled' : 'default'}
        leftSection={<IconFingerprint size={18} aria-hidden />}
        loading={step.isPending}
        onClick={() => step.mutate(challenge, { onSuccess: onSignedIn })}
        fullWidth
        autoFocus={primary}
      >
        {t('auth.twoFactor.usePasskey')}
      </Button>
    </Stack>
  );
};
