import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api/api-error';
import { formatDuration } from '@/lib/format';
import en from '@/lib/i18n/en.json';

type KnownCode = keyof typeof en.errors.codes;
const isKnownCode = (code: string): code is KnownCode => Object.hasOwn(en.errors.codes, code);

/** Codes whose message from the panel says more than our text can: the origin refusal names the address the panel expects. */
const PANEL_WORDED = new Set(['UNTRUSTED_ORIGIN']);

/** What an error state shows: a translated message when the code is known, else the panel's own. */
interface ErrorText {
  message: string;
  code?: string;
  requestId?: string;
}

export const describeError = (error: unknown, t: TFunction, locale?: string): ErrorText => {
  if (!(error instanceof ApiError)) {
    return { message: error instanceof Error && error.message ? error.message : t('errors.title') };
  }
  const base = { code: error.code, requestId: error.requestId };
  if (error.code === 'RATE_LIMITED' && error.retryAfterS !== undefined) {
    return { ...base, message: t('errors.rateLimitedFor', { time: formatDuration(error.retryAfterS, locale) }) };
  }
  if (PANEL_WORDED.has(error.code) && error.message) {
    return { ...base, message: error.message };
  }
  if (isKnownCode(error.code)) {
    return { ...base, message: t(`errors.codes.${error.code}`) };
  }
  return { ...base, message: error.message || t('errors.title') };
};
