import { describe, expect, it } from 'vitest';
import { challengeFromHash, normalizeCode, providerStartUrl, safeNext, signInTarget, twoFactorStep } from '@/features/auth/sign-in-flow';
import { ApiError } from '@/lib/api/api-error';

describe('signInTarget', () => {
  it('should use the e-mail route when the identifier has an @', () => {
    expect(signInTarget(' a@b.example ')).toEqual({ path: '/api/auth/sign-in/email', body: { email: 'a@b.example' } });
  });

  it('should use the username route otherwise', () => {
    expect(signInTarget('admin')).toEqual({ path: '/api/auth/sign-in/username', body: { username: 'admin' } });
  });
});

describe('twoFactorStep', () => {
  it('should carry the challenge when the answer has one', () => {
    const error = new ApiError(401, 'TWO_FACTOR_REQUIRED', 'code needed', 'r1', { challenge: 'abc' });
    expect(twoFactorStep(error)).toEqual({ challenge: 'abc' });
  });

  it('should carry the methods the account has, and only known ones', () => {
    const error = new ApiError(401, 'TWO_FACTOR_REQUIRED', 'code needed', 'r1', { challenge: 'abc', methods: ['passkey', 'sms'] });
    expect(twoFactorStep(error)).toEqual({ challenge: 'abc', methods: ['passkey'] });
  });

  it('should ask for a re-sent password when there is no challenge', () => {
    expect(twoFactorStep(new ApiError(401, 'TWO_FACTOR_REQUIRED', 'code needed'))).toEqual({});
    expect(twoFactorStep(new ApiError(401, 'TWO_FACTOR_REQUIRED', 'code needed', undefined, [{ field: 'x' }]))).toEqual({});
  });

  it('should be null for any other error', () => {
    expect(twoFactorStep(new ApiError(401, 'INVALID_CREDENTIALS', 'no'))).toBeNull();
    expect(twoFactorStep(new Error('boom'))).toBeNull();
  });
});

describe('normalizeCode', () => {
  it('should drop spaces and dashes from a pasted 6-digit code', () => {
    expect(normalizeCode(' 123 456 ', false)).toBe('123456');
    expect(normalizeCode('123-456', false)).toBe('123456');
  });

  it('should keep a recovery code as typed apart from surrounding spaces', () => {
    expect(normalizeCode(' abcd-efgh ', true)).toBe('abcd-efgh');
  });
});

describe('safeNext', () => {
  it('should keep a path of this site with its query and hash', () => {
    expect(safeNext('/server/5/files?path=%2Fplugins#x')).toBe('/server/5/files?path=%2Fplugins#x');
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '', 42, undefined, '/auth/login'])(
    'should fall back to / for %s',
    (next) => {
      expect(safeNext(next)).toBe('/');
    },
  );
});

describe('sign-in providers', () => {
  it('should take the two-factor challenge a provider callback left in the fragment', () => {
    expect(challengeFromHash('#challenge=abc-DEF_1')).toBe('abc-DEF_1');
    expect(challengeFromHash('')).toBeUndefined();
    expect(challengeFromHash('#other=1')).toBeUndefined();
  });

  it('should start a provider with where to land, only a path of the panel', () => {
    expect(providerStartUrl('3', undefined)).toBe('/api/auth/oauth/3');
    expect(providerStartUrl('3', '/server/abc?x=1')).toBe('/api/auth/oauth/3?returnTo=%2Fserver%2Fabc%3Fx%3D1');
    expect(providerStartUrl('3', '//evil.example')).toBe('/api/auth/oauth/3');
  });
});
