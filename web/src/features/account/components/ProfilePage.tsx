import { Alert, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { CurrentPasswordInput, NewPasswordFields, newPasswordReady } from '@/components/PasswordFields';
import { meQuery, useChangeEmail, useChangePassword, usePasswordLink, type Account } from '@/features/account/api';
import { shownError, useFreshSession } from '@/features/account/components/ReauthDialog';
import { LinkedAccountsCard } from '@/features/account/components/LinkedAccountsCard';
import { TwoFactorCard } from '@/features/account/components/TwoFactorCard';
import { PasskeysCard } from '@/features/passkeys/components/PasskeysCard';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';

const serverFields = (error: unknown): Record<string, string> => (error instanceof ApiError ? fieldErrors(error) : {});

const ProfileCard = ({ account }: { account: Account }) => {
  const { t, i18n } = useTranslation();
  const rows: [string, string][] = [
    [t('account.profile.name'), account.name || '–'],
    [t('account.profile.username'), account.username],
    [t('account.profile.email'), account.email],
    [t('account.profile.since'), formatDateTime(account.createdAt, i18n.language)],
  ];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-profile">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="account-profile">
          {t('account.profile.title')}
        </Title>
        {account.admin ? <Badge variant="default">{t('user.admin')}</Badge> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
        {rows.map(([label, value]) => (
          <Stack key={label} gap={0}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
};

const EmailCard = ({ account, onChanged }: { account: Account; onChanged: () => void }) => {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const fresh = useFreshSession(account);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const fields = serverFields(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void fresh.run(() => change.mutateAsync({ email: email.trim(), password })).then((ok) => {
      if (ok) {
        setEmail('');
        setPassword('');
        onChanged();
        notifications.show({ color: 'teal', message: t('account.email.done') });
      }
    });
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-email">
      <Title order={2} size="h4" id="account-email" mb="sm">
        {t('account.email.title')}
      </Title>
      {account.hasPassword ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('account.email.new')}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              error={fields.email}
              required
            />
            <CurrentPasswordInput value={password} onChange={setPassword} error={fields.password} />
            <FormError error={Object.keys(fields).length > 0 ? null : shownError(change.error)} />
            <Group>
              <Button type="submit" loading={change.isPending} disabled={!email.trim() || !password}>
                {t('account.email.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {t('account.email.needsPassword')}
        </Text>
      )}
      {fresh.dialog}
    </Card>
  );
};

/** An account without a password (made by signing on) asks for an e-mailed link to choose one. */
const ChoosePasswordCard = ({ account }: { account: Account }) => {
  const { t } = useTranslation();
  const link = usePasswordLink();
  const mailed = link.data;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-password">
      <Title order={2} size="h4" id="account-password">
        {t('account.choosePassword.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('account.choosePassword.text', { email: account.email })}
      </Text>
      <Stack gap="sm">
        {mailed ? (
          <Alert color={mailed.sent ? 'teal' : 'yellow'} role="status">
            {mailed.sent
              ? t('account.choosePassword.sent', { email: mailed.email })
              : t(mailed.reason === 'mail_failed' ? 'account.choosePassword.mail_failed' : 'account.choosePassword.mail_not_configured')}
          </Alert>
        ) : null}
        <FormError error={shownError(link.error)} />
        <Group>
          <Button onClick={() => link.mutate()} loading={link.isPending} variant={mailed?.sent ? 'default' : 'filled'}>
            {t(mailed?.sent ? 'account.choosePassword.again' : 'account.choosePassword.submit')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
};

const PasswordCard = ({ account }: { account: Account }) => {
  const { t } = useTranslation();
  const change = useChangePassword();
  const fresh = useFreshSession(account);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const fields = serverFields(change.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!newPasswordReady(next, repeat) || !current) {
      return;
    }
    void fresh.run(() => change.mutateAsync({ currentPassword: current, newPassword: next })).then((ok) => {
      if (ok) {
        setCurrent('');
        setNext('');
        setRepeat('');
        setTouched(false);
        notifications.show({ color: 'teal', message: t('account.password.done') });
      }
    });
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-password">
      <Title order={2} size="h4" id="account-password">
        {t('account.password.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('account.password.text')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <CurrentPasswordInput
            value={current}
            onChange={setCurrent}
            error={(touched && !current ? t('password.required') : undefined) ?? fields.currentPassword}
          />
          <NewPasswordFields value={next} repeat={repeat} onChange={setNext} onRepeatChange={setRepeat} touched={touched} serverError={fields.newPassword} />
          <FormError error={Object.keys(fields).length > 0 ? null : shownError(change.error)} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t('account.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      {fresh.dialog}
    </Card>
  );
};

const ProfileSkeleton = () => {
  const { t } = useTranslation();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('common.loading')} role="status">
      {[120, 200, 260].map((height) => (
        <Skeleton key={height} height={height} radius="md" />
      ))}
    </Stack>
  );
};

/** `/account`: who the user is, e-mail and password changes, two-factor sign-in, passkeys and linked accounts. */
export const ProfilePage = ({ onAccountChanged, linked, linkError }: { onAccountChanged: () => void; linked?: string; linkError?: string }) => {
  const { t } = useTranslation();
  const me = useQuery(meQuery);
  if (me.isError) {
    return <ErrorState error={me.error} title={t('account.loadError')} onRetry={() => void me.refetch()} />;
  }
  if (!me.data) {
    return <ProfileSkeleton />;
  }
  return (
    <Stack gap="md">
      <ProfileCard account={me.data} />
      <TwoFactorCard account={me.data} onChanged={onAccountChanged} />
      <PasskeysCard account={me.data} />
      <EmailCard account={me.data} onChanged={onAccountChanged} />
      {me.data.hasPassword ? <PasswordCard account={me.data} /> : <ChoosePasswordCard account={me.data} />}
      <LinkedAccountsCard account={me.data} linked={linked} error={linkError} />
    </Stack>
  );
};
