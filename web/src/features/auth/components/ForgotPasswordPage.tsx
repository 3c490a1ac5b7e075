import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { publicSettingsQuery, useForgetPassword } from '@/features/auth/api';
import { AuthCard } from '@/features/auth/components/AuthCard';
import { CaptchaWidget, type CaptchaControl } from '@/features/auth/components/CaptchaWidget';

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export const ForgotPasswordPage = () => {
  const { t } = useTranslation();
  const forget = useForgetPassword();
  const [email, setEmail] = useState('');
  const captchaSettings = useQuery(publicSettingsQuery).data?.captcha;
  const captcha = useRef<CaptchaControl>(null);
  // Asking reCAPTCHA v3 for a token takes a moment before the request starts: no second submit meanwhile.
  const [preparing, setPreparing] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPreparing(true);
    const token = await captcha.current?.token().finally(() => setPreparing(false));
    // A refused token is spent: the widget asks again.
    forget.mutate({ email: email.trim(), captcha: token }, { onError: () => captcha.current?.reset() });
  };

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      {forget.isSuccess ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
          {t('auth.forgot.sent', { email: email.trim() })}
        </Alert>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
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
            <CaptchaWidget settings={captchaSettings} action="forget_password" ref={captcha} />
            <FormError error={forget.error} />
            <Button type="submit" loading={forget.isPending || preparing} disabled={!email.includes('@')} fullWidth>
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
