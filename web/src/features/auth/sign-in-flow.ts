import { ApiError, detailsRecord } from '@/lib/api/api-error';

/** The sign-in route: e-mail when the identifier looks like one, else username (same password rules). */
export const signInTarget = (identifier: string): { path: '/api/auth/sign-in/email'; body: { email: string } } | { path: '/api/auth/sign-in/username'; body: { username: string } } => {
  const value = identifier.trim();
  return value.includes('@') ? { path: '/api/auth/sign-in/email', body: { email: value } } : { path: '/api/auth/sign-in/username', body: { username: value } };
};

/** A second factor the step after the password takes (`details.methods` of TWO_FACTOR_REQUIRED). */
export type SecondFactorMethod = 'totp' | 'passkey';

/**
 * The second step a sign-in answer asks for, or null when it asks for none. A TWO_FACTOR_REQUIRED
 * answer that carries `details.challenge` is finished with POST /api/auth/two-factor; one without
 * is finished by sending the password again with `totp`. `methods`, when the answer lists them, says
 * what the account can answer with (a code, a passkey); without them, a code.
 */
export const twoFactorStep = (error: unknown): { challenge?: string; methods?: SecondFactorMethod[] } | null => {
  if (!(error instanceof ApiError) || error.code !== 'TWO_FACTOR_REQUIRED') {
    return null;
  }
  const { challenge, methods } = detailsRecord(error);
  const known = Array.isArray(methods) ? methods.filter((m): m is SecondFactorMethod => m === 'totp' || m === 'passkey') : [];
  if (typeof challenge !== 'string' || challenge.length === 0) {
    return {};
  }
  return known.length > 0 ? { challenge, methods: known } : { challenge };
};

/** A 6-digit code as typed or pasted ("123 456", "123-456"), or a recovery code as given. */
export const normalizeCode = (code: string, recovery: boolean): string => (recovery ? code.trim() : code.replace(/[\s-]/g, ''));

/**
 * Where to go after signing in: only a path of this site ("/server/1?x"), never another origin
 * ("//evil.example", "https://…", "/\\evil"), so a crafted link cannot send the user elsewhere.
 */
export const safeNext = (next: unknown): string => {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) {
    return '/';
  }
  try {
    const url = new URL(next, 'http://panel.invalid');
    return url.origin === 'http://panel.invalid' && !url.pathname.startsWith('/auth/') ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
};

/**
 * The two-factor challenge a sign-in provider's callback left in the URL fragment (`#challenge=…`):
 * the sign-in then continues at its code step.
 */
export const challengeFromHash = (hash: string): string | undefined => {
  const challenge = new URLSearchParams(hash.replace(/^#/, '')).get('challenge');
  return challenge ? challenge : undefined;
};

/** Where a provider's button goes: its start, with where to land after. */
export const providerStartUrl = (id: string, next: string | undefined): string => {
  const target = safeNext(next);
  return `/api/auth/oauth/${encodeURIComponent(id)}${target === '/' ? '' : `?returnTo=${encodeURIComponent(target)}`}`;
};
