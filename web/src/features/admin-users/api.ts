import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api/client';
import { pageMeta } from '@/lib/api/page-meta';

export type AdminUser = components['schemas']['AdminUserResponseDto'];
type CreateUserBody = components['schemas']['CreateUserDto'];
type UpdateUserBody = components['schemas']['UpdateUserDto'];

const PER_PAGE = 25;

const keys = {
  all: ['admin-users'] as const,
  list: (search: string, page: number) => ['admin-users', 'list', search, page] as const,
  one: (id: string) => ['admin-users', 'one', id] as const,
};

export const usersQuery = (search: string, page: number) =>
  queryOptions({
    queryKey: keys.list(search, page),
    queryFn: async () => {
      const { data } = await api.GET('/api/admin/users', { params: { query: { page, perPage: PER_PAGE, ...(search ? { search } : {}) } } });
      const { total, totalPages } = pageMeta(data!.meta).pagination;
      return { users: data!.data, total, totalPages };
    },
    placeholderData: keepPreviousData,
  });

export const userQuery = (id: string) =>
  queryOptions({
    queryKey: keys.one(id),
    queryFn: async (): Promise<AdminUser> => (await api.GET('/api/admin/users/{id}', { params: { path: { id } } })).data!.data,
  });

/** After any change: the user's own entry is replaced and every list is read again. */
const useUserChange = <A,>(run: (arg: A) => Promise<AdminUser>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (user) => {
      qc.setQueryData(keys.one(user.id), user);
      void qc.invalidateQueries({ queryKey: [...keys.all, 'list'] });
    },
  });
};

export const useCreateUser = () =>
  useUserChange(async (body: CreateUserBody) => (await api.POST('/api/admin/users', { body })).data!.data);

export const useUpdateUser = (id: string) =>
  useUserChange(async (body: UpdateUserBody) => (await api.PATCH('/api/admin/users/{id}', { params: { path: { id } }, body })).data!.data);

export const useSetSuspended = (id: string) =>
  useUserChange(async (suspended: boolean) =>
    suspended
      ? (await api.POST('/api/admin/users/{id}/suspend', { params: { path: { id } } })).data!.data
      : (await api.POST('/api/admin/users/{id}/unsuspend', { params: { path: { id } } })).data!.data,
  );

export const useResetTwoFactor = (id: string) =>
  useUserChange(async () => (await api.DELETE('/api/admin/users/{id}/two-factor', { params: { path: { id } } })).data!.data);

export type PasswordLink = components['schemas']['PasswordLinkResponseDto'];

/** A one-time "choose your password" link for the account; any older link stops working. */
export const useCreatePasswordLink = (id: string) =>
  useMutation({
    mutationFn: async (): Promise<PasswordLink> => (await api.POST('/api/admin/users/{id}/password-link', { params: { path: { id } } })).data!.data,
  });

/** Made by a server owner's invitation and never signed in since: they may be waiting for a way in. */
export const isInvitedOnly = (user: Pick<AdminUser, 'invitedAt' | 'lastSignInAt'>): boolean => user.invitedAt !== null && user.lastSignInAt === null;

export const useDeleteUser = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await api.DELETE('/api/admin/users/{id}', { params: { path: { id } } });
    },
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: keys.one(id) });
      void qc.invalidateQueries({ queryKey: [...keys.all, 'list'] });
    },
  });
};
