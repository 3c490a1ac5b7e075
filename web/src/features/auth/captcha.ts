import type { components } from '@/api/schema';

export type CaptchaSettings = components['schemas']['PublicCaptchaDto'];
type CaptchaProvider = CaptchaSettings['provider'];

/** What the form protects; reCAPTCHA v3 and Turnstile report it with the token (letters and `_` only). */
export type CaptchaAction = 'sign_in' | 'forget_password';

/** The render options Turnstile and hCaptcha share (both name their callbacks the same way). */
export interface WidgetOptions {
  sitekey: string;
  theme: 'light' | 'dark';
  callback: (token: string) => void;
  'expired-callback': () => void;
  /** Turnstile throws the error unless this returns true ("handled"). */
  'error-callback': () => boolean;
  /** Turnstile only; hCaptcha ignores it. */
  action?: string;
}

/** `window.turnstile` and `window.hcaptcha`: an explicitly rendered checkbox widget. */
export interface WidgetApi {
  render: (container: HTMLElement, options: WidgetOptions) => string | null | undefined;
  reset: (widgetId: string) => void;
  remove: (widgetId: string) => void;
}

/** `window.grecaptcha` loaded with `?render=<siteKey>` (reCAPTCHA v3: no widget, a token per action). */
interface RecaptchaApi {
  ready: (callback: () => void) => void;
  execute: (siteKey: string, options: { action: string }) => PromiseLike<string>;
}

declare global {
  interface Window {
    turnstile?: WidgetApi;
    hcaptcha?: WidgetApi;
    grecaptcha?: RecaptchaApi;
    /** Called by the turnstile and hCaptcha scripts once loaded (their `onload` parameter). */
    hatcheryCaptchaReady_turnstile?: () => void;
    hatcheryCaptchaReady_hcaptcha?: () => void;
  }
}

/** A script that neither loads nor fails within this long (a stalled network, a silent blocker) counts as failed. */
const LOAD_TIMEOUT_MS = 20_000;

/** The global function the provider's script calls once its API is ready (Turnstile's and hCaptcha's `onload`). */
export const onloadCallbackName = <P extends 'turnstile' | 'hcaptcha'>(provider: P): `hatcheryCaptchaReady_${P}` => `hatcheryCaptchaReady_${provider}`;

const captchaScriptUrl = (provider: CaptchaProvider, siteKey: string): string => {
  switch (provider) {
    case 'turnstile':
      return `https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit&onload=${onloadCallbackName('turnstile')}`;
    case 'hcaptcha':
      return `https://js.hcaptcha.com/1/api.js?render=explicit&onload=${onloadCallbackName('hcaptcha')}&recaptchacompat=off`;
    case 'recaptcha':
      return `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
  }
};

const loads = new Map<string, Promise<void>>();

/**
 * Loads the provider's script once per page (every widget after the first reuses it) and resolves when
 * its API is ready. A failed load (blocked, offline, timed out) rejects, removes the script and is
 * forgotten, so the next call tries again.
 */
export const loadCaptchaScript = (provider: CaptchaProvider, siteKey: string): Promise<void> => {
  const src = captchaScriptUrl(provider, siteKey);
  const pending = loads.get(src);
  if (pending) {
    return pending;
  }
  const script = document.createElement('script');
  const load = new Promise<void>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error(`the ${provider} script did not load within ${LOAD_TIMEOUT_MS / 1000} s`)), LOAD_TIMEOUT_MS);
    const ready = () => {
      window.clearTimeout(timer);
      resolve();
    };
    if (provider === 'recaptcha') {
      script.addEventListener('load', () => {
        if (window.grecaptcha) {
          window.grecaptcha.ready(ready);
        } else {
          window.clearTimeout(timer);
          reject(new Error('the reCAPTCHA script loaded without window.grecaptcha'));
        }
      });
    } else {
      window[onloadCallbackName(provider)] = ready;
    }
    script.addEventListener('error', () => {
      window.clearTimeout(timer);
      reject(new Error(`the ${provider} script could not be loaded`));
    });
  });
  script.src = src;
  script.async = true;
  document.head.append(script);
  loads.set(src, load);
  load.catch(() => {
    loads.delete(src);
    script.remove();
  });
  return load;
};

/** The loaded widget API of Turnstile or hCaptcha. */
export const widgetApi = (provider: 'turnstile' | 'hcaptcha'): WidgetApi | undefined => (provider === 'turnstile' ? window.turnstile : window.hcaptcha);
