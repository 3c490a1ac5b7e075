import { Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { publicSettingsQuery, signInProvidersQuery, useSignIn, useTwoFactorChallenge } from '@/features/auth/api';
import { AuthCard } from '@/features/auth/components/AuthCard';
import { CaptchaWidget, type CaptchaControl } from '@/features/auth/components/CaptchaWidget';
import { challengeFromHash, normalizeCode, providerStartUrl, safeNext, twoFactorStep, type SecondFactorMethod } from '@/features/auth/sign-in-flow';
import { PasskeySignInButton, PasskeyStepButton } from '@/features/passkeys/components/PasskeySignIn';
import { ApiError } from '@/lib/api/api-error';

type Step = { kind: 'password' } | { kind: 'code'; challenge?: string; methods?: SecondFactorMethod[] };

/**
 * Sign-in on one page: password first; when the account has two-factor sign-in, a code step (or a
 * recovery code) without leaving the page, so a reload never loses what was typed.
 */
export const SignInPage = ({ next, providerError }: { next?: string; providerError?: string }) => {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const challengeStep = useTwoFactorChallenge();
  // A sign-in provider's callback for an account with two-factor sign-in lands here with its challenge.
  const [step, setStep] = useState<Step>(() => {
    const challenge = challengeFromHash(window.location.hash);
    if (challenge) {
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
    }
    return challenge ? { kind: 'code', challenge } : { kind: 'password' };
  });
  const providers = useQuery(signInProvidersQuery).data ?? [];
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  // A refusal of a sign-in provider's callback comes as `?error=<code>`.
  const [error, setError] = useState<unknown>(providerError ? new ApiError(400, providerError, '') : null);
  const captchaSettings = useQuery(publicSettingsQuery).data?.captcha;
  const captcha = useRef<CaptchaControl>(null);
  // Asking reCAPTCHA v3 for a token takes a moment before the request starts: no second submit meanwhile.
  const [preparing, setPreparing] = useState(false);
  const captchaToken = async (): Promise<string | undefined> => {
    setPreparing(true);
    try {
      return await captcha.current?.token();
    } finally {
      setPreparing(false);
    }
  };

  // A full page load, not a client-side move: the panel writes each signed-in page's content-security
  // policy for its user (the nodes their consoles connect to), and the sign-in page's names none.
  const done = () => window.location.replace(safeNext(next));

  const submitPassword = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const token = await captchaToken();
    signIn.mutate(
      { identifier, password, captcha: token },
      {
        onSuccess: done,
        onError: (err) => {
          // The token is spent whatever the answer was.
          captcha.current?.reset();
          const second = twoFactorStep(err);
          if (second) {
            setStep({ kind: 'code', ...second });
          } else {
            setError(err);
          }
        },
      },
    );
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (step.kind !== 'code') {
      return;
    }
    setError(null);
    const onError = (err: unknown) => {
      setError(err);
      setCode('');
    };
    if (step.challenge) {
      challengeStep.mutate({ challenge: step.challenge, code, recovery }, { onSuccess: done, onError });
    } else {
      // Without a challenge the code goes with the password to the sign-in route, which asks for a new CAPTCHA.
      const token = await captchaToken();
      signIn.mutate(
        { identifier, password, captcha: token, totp: code, recovery },
        {
          onSuccess: done,
          onError: (err) => {
            captcha.current?.reset();
            onError(err);
          },
        },
      );
    }
  };

  if (step.kind === 'code') {
    const pending = signIn.isPending || challengeStep.isPending || preparing;
    const back = () => {
      setStep({ kind: 'password' });
      setCode('');
      setError(null);
    };
    // A passkey instead of a code, when the account has one; alone when it has no code to give.
    const passkeyStep = step.challenge && step.methods?.includes('passkey') ? step.challenge : undefined;
    if (passkeyStep && !step.methods?.includes('totp')) {
      return (
        <AuthCard title={t('auth.twoFactor.title')} subtitle={t('auth.twoFactor.passkeyHelp')}>
          <Stack gap="md">
            <PasskeyStepButton challenge={passkeyStep} onSignedIn={done} primary />
            <Anchor component="button" type="button" size="sm" c="dimmed" onClick={back}>
              {t('auth.twoFactor.back')}
            </Anchor>
          </Stack>
        </AuthCard>
      );
    }
    return (
      <AuthCard title={t('auth.twoFactor.title')} subtitle={recovery ? t('auth.twoFactor.recoveryHelp') : t('auth.twoFactor.help')}>
        <form onSubmit={(e) => void submitCode(e)} noValidate>
          <Stack gap="md">
            {recovery ? (
              <TextInput
                label={t('auth.twoFactor.recoveryCode')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                required
                autoFocus
              />
            ) : (
              <TextInput
                label={t('auth.twoFactor.code')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={9}
                required
                data-autofocus
                autoFocus
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.3em', fontSize: 'var(--mantine-font-size-lg)' } }}
              />
            )}
            {step.challenge ? null : <CaptchaWidget settings={captchaSettings} action="sign_in" ref={captcha} />}
            <FormError error={error} />
            <Button type="submit" loading={pending} disabled={normalizeCode(code, recovery).length < 6} fullWidth>
              {t('auth.twoFactor.submit')}
            </Button>
            <UnstyledButton
              type="button"
              onClick={() => {
                setRecovery(!recovery);
                setCode('');
                setError(null);
              }}
            >
              <Text size="sm" c="var(--mantine-primary-color-filled)" td="underline">
                {recovery ? t('auth.twoFactor.useApp') : t('auth.twoFactor.useRecovery')}
              </Text>
            </UnstyledButton>
            {passkeyStep ? <PasskeyStepButton challenge={passkeyStep} onSignedIn={done} /> : null}
            <Anchor component="button" type="button" size="sm" c="dimmed" onClick={back}>
              {t('auth.twoFactor.back')}
            </Anchor>
          </Stack>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      <form onSubmit={(e) => void submitPassword(e)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('auth.signIn.identifier')}
            value={identifier}
            onChange={(e) => setIdentifier(e.currentTarget.value)}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            autoFocus
          />
          <PasswordInput
            label={t('auth.signIn.password')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="current-password"
            required
          />
          <CaptchaWidget settings={captchaSettings} action="sign_in" ref={captcha} />
          <FormError error={error} />
          <Button type="submit" loading={signIn.isPending || preparing} disabled={!identifier.trim() || !password} fullWidth>
            {t('auth.signIn.submit')}
          </Button>
          <Anchor component={Link} to="/auth/password" size="sm">
            {t('auth.signIn.forgot')}
          </Anchor>
        </Stack>
      </form>
      <PasskeySignInButton onSignedIn={done} />
      {providers.length > 0 ? (
        <Stack gap="xs" mt="md">
          <Divider label={t('auth.signIn.or')} labelPosition="center" />
          {providers.map((p) => (
            <Button key={p.id} component="a" href={providerStartUrl(p.id, next)} variant="default" fullWidth>
              {t('auth.signIn.continueWith', { name: p.name })}
            </Button>
          ))}
        </Stack>
      ) : null}
    </AuthCard>
  );
};
