import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { useForgetPassword } from '@/features/auth/api';
import { AuthCard } from '@/features/auth/components/AuthCard';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export const ForgotPasswordPage = () => {
  const { t } = useTranslation();
  const forget = useForgetPassword();
  const [email, setEmail] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    forget.mutate({ email: email.trim() });
  };

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      {forget.isSuccess ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
          {t('auth.forgot.sent', { email: email.trim() })}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              type="email"
              label={t('auth.forgot.email')}
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              required
              autoFocus
            />
            <FormError error={forget.error} />
            <Button type="submit" loading={forget.isPending} disabled={!email.includes('@')} fullWidth>
              {t('auth.forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/auth/login" size="sm">
        {t('auth.backToSignIn')}
      </Anchor>
    </AuthCard>
  );
};
