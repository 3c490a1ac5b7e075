import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { NewPasswordFields, newPasswordReady } from '@/components/PasswordFields';
import { useResetPassword } from '@/features/auth/api';
import { AuthCard } from '@/features/auth/components/AuthCard';
import { fieldErrors, ApiError } from '@/lib/api/api-error';

/** The page the reset e-mail links to (`/auth/password/reset?token=`): a new password, twice. */
export const ResetPasswordPage = ({ token }: { token?: string }) => {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);

  const serverField = reset.error instanceof ApiError ? fieldErrors(reset.error).newPassword : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (token && newPasswordReady(password, repeat)) {
      reset.mutate({ token, newPassword: password });
    }
  };

  if (!token) {
    return (
      <AuthCard title={t('auth.reset.title')}>
        <Alert color="red" variant="light" role="alert">
          {t('errors.codes.PASSWORD_RESET_TOKEN_INVALID')}
        </Alert>
        <Anchor component={Link} to="/auth/password" size="sm">
          {t('auth.reset.requestNew')}
        </Anchor>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.reset.title')} subtitle={reset.isSuccess ? undefined : t('auth.reset.subtitle')}>
      {reset.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
            {t('auth.reset.done')}
          </Alert>
          <Button component={Link} to="/auth/login" fullWidth>
            {t('auth.signIn.submit')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <NewPasswordFields
              value={password}
              repeat={repeat}
              onChange={setPassword}
              onRepeatChange={setRepeat}
              touched={touched}
              serverError={serverField}
              autoFocus
            />
            <FormError error={serverField ? null : reset.error} />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('auth.reset.submit')}
            </Button>
          </Stack>
        </form>
      )}
      {reset.isSuccess ? null : (
        <Anchor component={Link} to="/auth/login" size="sm">
          {t('auth.backToSignIn')}
        </Anchor>
      )}
    </AuthCard>
  );
};
