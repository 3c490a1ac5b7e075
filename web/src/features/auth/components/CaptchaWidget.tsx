import { Alert, Box, Button, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { loadCaptchaScript, widgetApi, type CaptchaAction, type CaptchaSettings } from '@/features/auth/captcha';

/** What a form does with the CAPTCHA around its submit. */
export interface CaptchaControl {
  /** The token to send now: the solved widget's (undefined when unsolved), or a fresh reCAPTCHA v3 one. */
  token: () => Promise<string | undefined>;
  /** After a failed attempt: a token works once, so the widget asks again. */
  reset: () => void;
}

type LoadState = 'loading' | 'ready' | 'failed';

/** The heights the providers' widgets take, kept while the script loads so the form does not jump. */
const WIDGET_HEIGHT = { turnstile: 65, hcaptcha: 78 } as const;

interface CaptchaWidgetProps {
  /** From GET /api/settings; null (or no site key) when the panel asks for no CAPTCHA: nothing is drawn. */
  settings: CaptchaSettings | null | undefined;
  action: CaptchaAction;
  ref: Ref<CaptchaControl>;
}

/**
 * The configured provider's CAPTCHA for a signed-out form: Turnstile's or hCaptcha's checkbox, or
 * reCAPTCHA v3, which has none and hands out a token right before the submit. Tells the visitor when
 * the provider's script cannot load (blocked, offline), with a way to try again.
 */
export const CaptchaWidget = ({ settings, action, ref }: CaptchaWidgetProps) => {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const container = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | null>(null);
  const solved = useRef<string | undefined>(undefined);
  const [state, setState] = useState<LoadState>('loading');
  const [widgetError, setWidgetError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const provider = settings?.siteKey ? settings.provider : null;
  const siteKey = settings?.siteKey ?? '';

  useEffect(() => {
    if (!provider) {
      return;
    }
    let live = true;
    setState('loading');
    setWidgetError(false);
    loadCaptchaScript(provider, siteKey).then(
      () => {
        if (!live) {
          return;
        }
        if (provider !== 'recaptcha') {
          const api = widgetApi(provider);
          if (!api || !container.current) {
            setState('failed');
            return;
          }
          solved.current = undefined;
          widgetId.current =
            api.render(container.current, {
              sitekey: siteKey,
              theme: scheme,
              action,
              callback: (token) => {
                solved.current = token;
                setWidgetError(false);
              },
              'expired-callback': () => {
                solved.current = undefined;
              },
              'error-callback': () => {
                solved.current = undefined;
                setWidgetError(true);
                return true;
              },
            }) ?? null;
        }
        setState('ready');
      },
      () => {
        if (live) {
          setState('failed');
        }
      },
    );
    return () => {
      live = false;
      if (provider !== 'recaptcha' && widgetId.current !== null) {
        widgetApi(provider)?.remove(widgetId.current);
      }
      widgetId.current = null;
      solved.current = undefined;
    };
  }, [provider, siteKey, action, scheme, attempt]);

  useImperativeHandle(
    ref,
    () => ({
      token: async () => {
        if (provider !== 'recaptcha') {
          return solved.current;
        }
        const grecaptcha = window.grecaptcha;
        if (state !== 'ready' || !grecaptcha) {
          return undefined;
        }
        try {
          return await grecaptcha.execute(siteKey, { action });
        } catch {
          // The panel answers CAPTCHA_REQUIRED, which says what to do.
          return undefined;
        }
      },
      reset: () => {
        solved.current = undefined;
        if (provider && provider !== 'recaptcha' && widgetId.current !== null) {
          widgetApi(provider)?.reset(widgetId.current);
        }
      },
    }),
    [provider, siteKey, action, state],
  );

  if (!provider) {
    return null;
  }
  if (state === 'failed') {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert" p="sm" title={t('auth.captcha.unavailableTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('auth.captcha.unavailable')}</Text>
          <Button size="xs" variant="default" onClick={() => setAttempt((n) => n + 1)}>
            {t('auth.captcha.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (provider === 'recaptcha') {
    // v3 draws its own badge; the form only asks it for a token on submit.
    return null;
  }
  return (
    <Stack gap={4}>
      <Box ref={container} mih={WIDGET_HEIGHT[provider]} data-captcha={provider} data-state={state} />
      {widgetError ? (
        <Alert color="red" variant="light" role="status" p="xs">
          <Text size="sm">{t('auth.captcha.widgetError')}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
};
