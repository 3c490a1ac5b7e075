import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { CurrentPasswordInput } from '@/components/PasswordFields';
import { isNotFresh, useReauthenticate, type Account } from '@/features/account/api';
import { useSignOut } from '@/features/auth/api';
import { useReauthenticateWithPasskey } from '@/features/passkeys/api';
import { isCancelled } from '@/features/passkeys/webauthn';

type Action = () => Promise<unknown>;

/**
 * Runs a change that needs a recent sign-in. When the panel answers SESSION_NOT_FRESH, a dialog asks
 * for the password (and the two-factor code when it is on), signs in again and retries the change.
 * Any other failure is left to the form's own error (the mutation keeps it).
 */
export const useFreshSession = (account: Account): { run: (action: Action) => Promise<boolean>; dialog: ReactNode } => {
  const [pending, setPending] = useState<{ action: Action; done: (ok: boolean) => void } | null>(null);
  const run = (action: Action): Promise<boolean> =>
    new Promise((done) => {
      action().then(
        () => done(true),
        (error: unknown) => (isNotFresh(error) ? setPending({ action, done }) : done(false)),
      );
    });
  const dialog = (
    <ReauthDialog
      account={account}
      opened={pending !== null}
      onCancel={() => {
        pending?.done(false);
        setPending(null);
      }}
      onDone={() => {
        if (pending) {
          setPending(null);
          pending.action().then(
            () => pending.done(true),
            () => pending.done(false),
          );
        }
      }}
    />
  );
  return { run, dialog };
};

interface ReauthDialogProps {
  account: Account;
  opened: boolean;
  onCancel: () => void;
  onDone: () => void;
}

/**
 * An account without a password (made by signing on with a provider) cannot confirm itself here: it is
 * told to sign in again, and offered to sign out.
 */
const SignInAgainDialog = ({ opened, onCancel }: { opened: boolean; onCancel: () => void }) => {
  const { t } = useTranslation();
  const signOut = useSignOut();
  return (
    <Modal opened={opened} onClose={onCancel} title={t('account.reauth.title')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <Stack>
        <Text size="sm">{t('account.reauth.signInAgain')}</Text>
        <FormError error={signOut.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button loading={signOut.isPending} onClick={() => signOut.mutate()}>
            {t('user.signOut')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};

const ReauthDialog = (props: ReauthDialogProps) =>
  props.account.hasPassword ? <PasswordReauthDialog {...props} /> : <SignInAgainDialog opened={props.opened} onCancel={props.onCancel} />;

const PasswordReauthDialog = ({ account, opened, onCancel, onDone }: ReauthDialogProps) => {
  const { t } = useTranslation();
  // With a passkey and no TOTP code, the password's second step is the passkey (the browser asks for it).
  const byPassword = useReauthenticate();
  const byPasskey = useReauthenticateWithPasskey();
  const passkeyStep = account.hasPasskey && !account.twoFactorEnabled;
  const reauth = passkeyStep ? byPasskey : byPassword;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const close = () => {
    setPassword('');
    setCode('');
    reauth.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const onSuccess = () => {
      close();
      onDone();
    };
    if (passkeyStep) {
      byPasskey.mutate({ email: account.email, password }, { onSuccess });
    } else {
      byPassword.mutate({ email: account.email, password, totp: account.twoFactorEnabled ? code : undefined }, { onSuccess });
    }
  };
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!reauth.isPending) {
          close();
          onCancel();
        }
      }}
      title={t('account.reauth.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{passkeyStep ? t('account.reauth.passkeyText') : t('account.reauth.text')}</Text>
          <CurrentPasswordInput value={password} onChange={setPassword} data-autofocus />
          {account.twoFactorEnabled ? (
            <TextInput
              label={t('account.reauth.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
            />
          ) : null}
          <FormError error={isCancelled(reauth.error) ? null : reauth.error} />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                close();
                onCancel();
              }}
              disabled={reauth.isPending}
            >
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={reauth.isPending} disabled={!password || (account.twoFactorEnabled && !code)}>
              {t('account.reauth.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** A form's error, except the "sign in again" one the dialog above takes care of. */
export const shownError = (error: unknown): unknown => (isNotFresh(error) ? null : error);
