import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api } from '@/lib/api/client';
import { normalizeCode, signInTarget } from '@/features/auth/sign-in-flow';

import type { components } from '@/api/schema';

export type SessionUser = components['schemas']['UserResponseDto'];
type CurrentSession = components['schemas']['SessionStateDto'];

const authKeys = {
  session: ['auth', 'session'] as const,
  settings: ['settings', 'public'] as const,
};

/** The panel's public settings; the signed-out forms read which CAPTCHA to draw from them. */
/** Sign-in providers with a button on the sign-in page (docs/sso.md). */
export const signInProvidersQuery = queryOptions({
  queryKey: ['auth', 'providers'] as const,
  queryFn: async () => (await api.GET('/api/auth/providers')).data!.data,
  staleTime: 5 * 60_000,
});

export const publicSettingsQuery = queryOptions({
  queryKey: authKeys.settings,
  queryFn: async () => {
    const { data } = await api.GET('/api/settings');
    return data!.data;
  },
  staleTime: 5 * 60_000,
});

/** The signed-in user; a 401 (ApiError) means nobody is. Loaded once by the app layout's beforeLoad. */
export const sessionQuery = queryOptions({
  queryKey: authKeys.session,
  queryFn: async (): Promise<CurrentSession> => {
    const { data } = await api.GET('/api/auth/session');
    return data!.data;
  },
  staleTime: 5 * 60_000,
  retry: false,
});

/** The solved CAPTCHA goes in this header of the routes the panel guards with one. */
const captchaHeader = (captcha?: string): { 'x-captcha-response'?: string } => (captcha ? { 'x-captcha-response': captcha } : {});

/** What the sign-in form gives: `totp` is the second step without a challenge (the password goes again with the code). */
type SignInInput = { identifier: string; password: string; captcha?: string; totp?: string; recovery?: boolean };

/** Password sign-in (and, without a challenge, the re-POST with `totp`); sets the session cookie. */
export const useSignIn = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ identifier, password, captcha, totp, recovery }: SignInInput): Promise<void> => {
      const target = signInTarget(identifier);
      const secret = { password, ...(totp ? { totp: normalizeCode(totp, recovery ?? false) } : {}) };
      const params = { header: captchaHeader(captcha) };
      if (target.path === '/api/auth/sign-in/email') {
        await api.POST('/api/auth/sign-in/email', { body: { ...target.body, ...secret }, params });
      } else {
        await api.POST('/api/auth/sign-in/username', { body: { ...target.body, ...secret }, params });
      }
    },
    onSuccess: () => queryClient.removeQueries({ queryKey: authKeys.session }),
  });
};

/** The second step with the challenge a TWO_FACTOR_REQUIRED answer carried. */
export const useTwoFactorChallenge = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ challenge, code, recovery }: { challenge: string; code: string; recovery: boolean }): Promise<void> => {
      await api.POST('/api/auth/two-factor', { body: { challenge, code: normalizeCode(code, recovery) } });
    },
    onSuccess: () => queryClient.removeQueries({ queryKey: authKeys.session }),
  });
};

export const useSignOut = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (): Promise<void> => {
      await api.POST('/api/auth/sign-out');
    },
    // Every cached answer belonged to the user who left; the sign-in page follows.
    onSettled: () => queryClient.clear(),
    onSuccess: () => void navigate({ to: '/auth/login' }),
  });
};

export const useForgetPassword = () =>
  useMutation({
    mutationFn: async ({ email, captcha }: { email: string; captcha?: string }): Promise<void> => {
      await api.POST('/api/auth/forget-password', { body: { email }, params: { header: captchaHeader(captcha) } });
    },
  });

export const useResetPassword = () =>
  useMutation({
    mutationFn: async ({ token, newPassword }: { token: string; newPassword: string }): Promise<void> => {
      await api.POST('/api/auth/reset-password', { body: { token, newPassword } });
    },
  });
