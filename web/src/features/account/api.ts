import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { ApiError } from '@/lib/api/api-error';
import { api } from '@/lib/api/client';
import type { AdminArea } from '@/features/auth/admin-access';

export type Account = components['schemas']['AccountResponseDto'];
export type ApiKey = components['schemas']['ApiKeyResponseDto'];
export type CreatedApiKey = components['schemas']['CreatedApiKeyResponseDto'];
export type AdminScope = NonNullable<components['schemas']['CreateApiKeyDto']['permissions']>[number];
export type PterodactylKey = components['schemas']['PterodactylKeyResponseDto'];
export type CreatedPterodactylKey = components['schemas']['CreatedPterodactylKeyResponseDto'];
export type SshKey = components['schemas']['SshKeyResponseDto'];
export type AccountSession = components['schemas']['SessionResponseDto'];
export type TwoFactorSetup = components['schemas']['TwoFactorSetupResponseDto'];
export type Identity = components['schemas']['IdentityDto'];
type PasswordLinkMail = components['schemas']['OwnPasswordLinkResponseDto'];
type LinkableProvider = components['schemas']['PublicAuthProviderDto'];

/** Every admin scope a key can carry (CreateApiKeyDto), in the order the form lists them. */
const ADMIN_SCOPES: readonly AdminScope[] = [
  'servers.read',
  'servers.write',
  'users.read',
  'users.write',
  'nodes.read',
  'nodes.write',
  'eggs.read',
  'eggs.write',
  'webhooks.read',
  'webhooks.write',
  'settings.read',
  'settings.write',
  'locations.read',
  'locations.write',
  'database_hosts.read',
  'database_hosts.write',
  'backup_hosts.read',
  'backup_hosts.write',
  'mounts.read',
  'mounts.write',
  'audit.read',
];

/** The scopes a user may put on a key: those its admin access holds (a key never exceeds its owner). */
export const heldAdminScopes = (access: { can: (area: AdminArea, level: 'read' | 'write') => boolean }): AdminScope[] =>
  ADMIN_SCOPES.filter((scope) => {
    const [area, level] = scope.split('.') as [AdminArea, 'read' | 'write'];
    return access.can(area, level);
  });

const accountKeys = {
  all: ['account'] as const,
  me: ['account', 'me'] as const,
  apiKeys: ['account', 'api-keys'] as const,
  pterodactylKeys: ['account', 'pterodactyl-keys'] as const,
  sshKeys: ['account', 'ssh-keys'] as const,
  sessions: ['account', 'sessions'] as const,
  identities: ['account', 'identities'] as const,
  linkable: ['account', 'identities', 'providers'] as const,
};

// The account routes have small rate-limit buckets (docs: 15–20 per 5 min): no refetch on focus.
const accountQuery = <T,>(queryKey: readonly string[], read: () => Promise<T>) =>
  queryOptions({ queryKey, queryFn: read, refetchOnWindowFocus: false });

export const meQuery = accountQuery(accountKeys.me, async (): Promise<Account> => (await api.GET('/api/account')).data!.data);
export const apiKeysQuery = accountQuery(accountKeys.apiKeys, async (): Promise<ApiKey[]> => (await api.GET('/api/account/api-keys')).data!.data);
export const pterodactylKeysQuery = accountQuery(
  accountKeys.pterodactylKeys,
  async (): Promise<PterodactylKey[]> => (await api.GET('/api/account/pterodactyl-keys')).data!.data,
);
export const sshKeysQuery = accountQuery(accountKeys.sshKeys, async (): Promise<SshKey[]> => (await api.GET('/api/account/ssh-keys')).data!.data);
export const identitiesQuery = accountQuery(accountKeys.identities, async (): Promise<Identity[]> => (await api.GET('/api/account/identities')).data!.data);
export const linkableProvidersQuery = accountQuery(accountKeys.linkable, async (): Promise<LinkableProvider[]> => (await api.GET('/api/account/identities/providers')).data!.data);

/** Where a provider's "Link" goes: its start, with this session (docs/sso.md). */
export const linkUrl = (providerId: string): string => `/api/auth/oauth/${encodeURIComponent(providerId)}?link=true`;

export const useUnlinkIdentity = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/account/identities/{id}', { params: { path: { id } } });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: accountKeys.identities }),
  });
};
export const sessionsQuery = accountQuery(accountKeys.sessions, async (): Promise<AccountSession[]> => (await api.GET('/api/account/sessions')).data!.data);

/** The panel wants a recent sign-in for this change (password, e-mail, two-factor setup). */
export const isNotFresh = (error: unknown): boolean => error instanceof ApiError && error.code === 'SESSION_NOT_FRESH';

export const useChangeEmail = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { email: string; password: string }): Promise<Account> => (await api.PUT('/api/account/email', { body })).data!.data,
    onSuccess: (account) => queryClient.setQueryData(accountKeys.me, account),
  });
};

export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { currentPassword: string; newPassword: string }): Promise<void> => {
      await api.PUT('/api/account/password', { body });
    },
    // Every other session ended.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
};

/** For an account without a password (made by signing on): mails it a link to choose one. */
export const usePasswordLink = () =>
  useMutation({
    mutationFn: async (): Promise<PasswordLinkMail> => (await api.POST('/api/account/password/link')).data!.data,
  });

export const useTwoFactorSetup = () =>
  useMutation({
    mutationFn: async (): Promise<TwoFactorSetup> => (await api.POST('/api/user/2fa/setup')).data!.data,
  });

/** Turns two-factor sign-in on; the caller shows the recovery codes and refreshes the account once they are saved. */
export const useTwoFactorEnable = () =>
  useMutation({
    mutationFn: async (code: string): Promise<string[]> => (await api.POST('/api/user/2fa/enable', { body: { code } })).data!.data.recoveryCodes,
  });

export const useTwoFactorDisable = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (password: string): Promise<void> => {
      await api.POST('/api/user/2fa/disable', { body: { password } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.me }),
  });
};

/** After the recovery codes are saved: the account (now with two-factor on) is read again. */
export const useRefreshAccount = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.me });
};

export const useCreateApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; expiresInDays: number; permissions: AdminScope[] }): Promise<CreatedApiKey> =>
      (await api.POST('/api/account/api-keys', { body })).data!.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys }),
  });
};

export const useDeleteApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identifier: string): Promise<void> => {
      await api.DELETE('/api/account/api-keys/{identifier}', { params: { path: { identifier } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys }),
  });
};

/** A client key (`ptlc_…`) for tools that speak Pterodactyl's client API; the answer carries the key, once. */
export const useCreatePterodactylKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { description: string; allowedIps: string[] }): Promise<CreatedPterodactylKey> =>
      (await api.POST('/api/account/pterodactyl-keys', { body })).data!.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.pterodactylKeys }),
  });
};

export const useDeletePterodactylKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identifier: string): Promise<void> => {
      await api.DELETE('/api/account/pterodactyl-keys/{identifier}', { params: { path: { identifier } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.pterodactylKeys }),
  });
};

export const useAddSshKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; publicKey: string }): Promise<SshKey> => (await api.POST('/api/account/ssh-keys', { body })).data!.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sshKeys }),
  });
};

export const useDeleteSshKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    // openapi-fetch percent-encodes the path segment, so "SHA256:ab/c+d" stays one segment.
    mutationFn: async (fingerprint: string): Promise<void> => {
      await api.DELETE('/api/account/ssh-keys/{fingerprint}', { params: { path: { fingerprint } } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sshKeys }),
  });
};

export const useRevokeSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<void> => {
      await api.DELETE('/api/account/sessions/{id}', { params: { path: { id } } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
};

export const useRevokeOtherSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<void> => {
      await api.DELETE('/api/account/sessions');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
};

/**
 * Signs in again with the password (and the current two-factor code when it is on), so that a change
 * that needs a recent sign-in can be retried; the session it replaces is then ended, so signing in
 * again does not leave a second session behind.
 */
export const useReauthenticate = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ email, password, totp }: { email: string; password: string; totp?: string }): Promise<void> => {
      const before = (await api.GET('/api/account/sessions')).data!.data.find((s) => s.current)?.id;
      await api.POST('/api/auth/sign-in/email', { body: { email, password, ...(totp ? { totp: totp.replace(/[\s-]/g, '') } : {}) } });
      if (before) {
        await api.DELETE('/api/account/sessions/{id}', { params: { path: { id: before } } }).catch(() => undefined);
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
};
