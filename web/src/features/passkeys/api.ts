import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { twoFactorStep } from '@/features/auth/sign-in-flow';
import { createPasskey, signWithPasskey } from '@/features/passkeys/webauthn';

export type Passkey = components['schemas']['PasskeyResponseDto'];

const passkeyKeys = {
  list: ['account', 'passkeys'] as const,
  me: ['account', 'me'] as const,
  session: ['auth', 'session'] as const,
};

// A small rate-limit bucket (20 per 5 min): no refetch on focus, as the other account lists.
export const passkeysQuery = queryOptions({
  queryKey: passkeyKeys.list,
  queryFn: async (): Promise<Passkey[]> => (await api.GET('/api/account/passkeys')).data!.data,
  refetchOnWindowFocus: false,
});

/** Options from the panel, the browser's dialog, then the new passkey checked and kept by the panel. */
export const useAddPasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<Passkey> => {
      const { options } = (await api.POST('/api/account/passkeys/options')).data!.data;
      const response = await createPasskey(options);
      return (await api.POST('/api/account/passkeys', { body: { name, response } })).data!.data;
    },
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: passkeyKeys.list }), queryClient.invalidateQueries({ queryKey: passkeyKeys.me })]),
  });
};

export const useRenamePasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }): Promise<Passkey> =>
      (await api.PATCH('/api/account/passkeys/{id}', { params: { path: { id } }, body: { name } })).data!.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list }),
  });
};

export const useDeletePasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await api.DELETE('/api/account/passkeys/{id}', { params: { path: { id } } });
    },
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: passkeyKeys.list }), queryClient.invalidateQueries({ queryKey: passkeyKeys.me })]),
  });
};

/** A sign-in by passkey alone: options, the browser's dialog (any passkey of this site), the session cookie. */
export const usePasskeySignIn = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<void> => {
      const { options } = (await api.POST('/api/auth/passkey/options')).data!.data;
      const response = await signWithPasskey(options);
      await api.POST('/api/auth/passkey', { body: { response } });
    },
    onSuccess: () => queryClient.removeQueries({ queryKey: passkeyKeys.session }),
  });
};

/** The step after the password with a passkey: options for the challenge (the user's own passkeys), then the step. */
export const usePasskeySecondFactor = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (challenge: string): Promise<void> => {
      const { options } = (await api.POST('/api/auth/two-factor/passkey-options', { body: { challenge } })).data!.data;
      const passkey = await signWithPasskey(options);
      await api.POST('/api/auth/two-factor', { body: { challenge, passkey } });
    },
    onSuccess: () => queryClient.removeQueries({ queryKey: passkeyKeys.session }),
  });
};

/**
 * A recent sign-in for a change that needs one, for an account whose second step is a passkey: the
 * password, then one of this account's own passkeys (so no other account's passkey can stand in);
 * the new session replaces the current one.
 */
export const useReauthenticateWithPasskey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ email, password }: { email: string; password: string }): Promise<void> => {
      const before = (await api.GET('/api/account/sessions')).data!.data.find((s) => s.current)?.id;
      try {
        await api.POST('/api/auth/sign-in/email', { body: { email, password } });
      } catch (error) {
        const challenge = twoFactorStep(error)?.challenge;
        if (!challenge) {
          throw error;
        }
        const { options } = (await api.POST('/api/auth/two-factor/passkey-options', { body: { challenge } })).data!.data;
        await api.POST('/api/auth/two-factor', { body: { challenge, passkey: await signWithPasskey(options) } });
      }
      if (before) {
        await api.DELETE('/api/account/sessions/{id}', { params: { path: { id: before } } }).catch(() => undefined);
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
