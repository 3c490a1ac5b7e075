import { Anchor, Badge, Button, Code, Group, MultiSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { type AdminUser, isInvitedOnly, type PasswordLink, useCreatePasswordLink, useDeleteUser, useResetTwoFactor, useSetSuspended, useUpdateUser, userQuery } from '@/features/admin-users/api';
import { UserForm } from '@/features/admin-users/components/UserForm';
import { rolesQuery } from '@/features/admin-roles/api';
import { useAdminAccess } from '@/features/auth/admin-access';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';

type Pending = 'suspend' | 'unsuspend' | 'two-factor' | 'delete' | null;

const Fact = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Stack gap={0} style={{ minWidth: 0 }}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
      {children}
    </Text>
  </Stack>
);

/** Suspension, two-factor reset and deletion, each behind a confirmation that says what it does. */
const AccessCard = ({ user, self }: { user: AdminUser; self: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const suspend = useSetSuspended(user.id);
  const reset = useResetTwoFactor(user.id);
  const remove = useDeleteUser();
  const [asking, setAsking] = useState<Pending>(null);
  // The reset removes passkeys too: a user with only a passkey is asked for it after the password.
  const secondFactor = user.twoFactorEnabled || user.hasPasskey;
  const error = suspend.error ?? reset.error ?? remove.error;
  const close = () => setAsking(null);
  const confirm = () => {
    if (asking === 'suspend' || asking === 'unsuspend') {
      suspend.mutate(asking === 'suspend', {
        onSuccess: (u) => {
          notify({ color: 'green', message: t(u.suspended ? 'adminUsers.suspended' : 'adminUsers.unsuspended', { name: u.username }) });
          close();
        },
        onError: close,
      });
    } else if (asking === 'two-factor') {
      reset.mutate(undefined, {
        onSuccess: (u) => {
          notify({ color: 'green', message: t('adminUsers.twoFactorReset', { name: u.username }) });
          close();
        },
        onError: close,
      });
    } else if (asking === 'delete') {
      remove.mutate(user.id, {
        onSuccess: () => {
          notify({ color: 'green', message: t('adminUsers.deleted', { name: user.username }) });
          void navigate({ to: '/admin/users' });
        },
        onError: close,
      });
    }
  };
  const texts = {
    suspend: { title: t('adminUsers.suspendTitle'), message: t('adminUsers.suspendText', { name: user.username }), label: t('adminUsers.suspend') },
    unsuspend: { title: t('adminUsers.unsuspendTitle'), message: t('adminUsers.unsuspendText', { name: user.username }), label: t('adminUsers.unsuspend') },
    'two-factor': { title: t('adminUsers.resetTwoFactorTitle'), message: t('adminUsers.resetTwoFactorText', { name: user.username }), label: t('adminUsers.resetTwoFactor') },
    delete: { title: t('adminUsers.deleteTitle'), message: t('adminUsers.deleteText', { name: user.username }), label: t('adminUsers.delete') },
  } as const;
  const shown = asking ? texts[asking] : null;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('adminUsers.accessTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {self ? t('adminUsers.selfNote') : t('adminUsers.accessText')}
        </Text>
        <Group gap="sm">
          {user.suspended ? (
            <Button variant="default" onClick={() => setAsking('unsuspend')}>
              {t('adminUsers.unsuspend')}
            </Button>
          ) : (
            <Button variant="default" onClick={() => setAsking('suspend')} disabled={self}>
              {t('adminUsers.suspend')}
            </Button>
          )}
          <Button variant="default" onClick={() => setAsking('two-factor')} disabled={!secondFactor}>
            {t('adminUsers.resetTwoFactor')}
          </Button>
          <Button color="red" variant="light" onClick={() => setAsking('delete')} disabled={self}>
            {t('adminUsers.delete')}
          </Button>
        </Group>
        {!secondFactor ? (
          <Text size="xs" c="dimmed">
            {t('adminUsers.twoFactorOff')}
          </Text>
        ) : null}
        {error ? <FormError error={error} /> : null}
      </Stack>
      <ConfirmDialog
        opened={shown !== null}
        title={shown?.title ?? ''}
        message={shown?.message ?? ''}
        confirmLabel={shown?.label}
        danger={asking !== 'unsuspend'}
        loading={suspend.isPending || reset.isPending || remove.isPending}
        onClose={close}
        onConfirm={confirm}
      />
    </Paper>
  );
};

/**
 * A one-time "choose your password" link for an account that cannot get in (an invitation no mail
 * server sent, a forgotten password on a panel without mail), shown once with a copy button.
 */
const PasswordLinkCard = ({ user, self }: { user: AdminUser; self: boolean }) => {
  const { t, i18n } = useTranslation();
  const create = useCreatePasswordLink(user.id);
  const [link, setLink] = useState<PasswordLink | null>(null);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('adminUsers.linkTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {self ? t('adminUsers.linkSelf') : isInvitedOnly(user) ? t('adminUsers.linkTextInvited', { email: user.email }) : t('adminUsers.linkText')}
        </Text>
        {link ? (
          <ShownOnceSecret
            title={t('adminUsers.linkMade')}
            text={t('adminUsers.linkShownOnce', { email: user.email, expires: formatDateTime(link.expiresAt, i18n.language) })}
            value={link.url}
            copyLabel={t('adminUsers.linkCopy')}
            testId="password-link"
            dismissLabel={t('adminUsers.linkDismiss')}
            onDismiss={() => setLink(null)}
          />
        ) : null}
        <Group>
          <Button
            variant="default"
            disabled={self}
            loading={create.isPending}
            onClick={() =>
              create.mutate(undefined, {
                onSuccess: setLink,
              })
            }
          >
            {link ? t('adminUsers.linkAgain') : t('adminUsers.linkCreate')}
          </Button>
        </Group>
        {create.error ? <FormError error={create.error} /> : null}
      </Stack>
    </Paper>
  );
};

/** The administrator roles the user holds (full administrators only: they alone give roles). */
const RolesCard = ({ user }: { user: AdminUser }) => {
  const { t } = useTranslation();
  const roles = useQuery(rolesQuery());
  const update = useUpdateUser(user.id);
  const [chosen, setChosen] = useState<string[]>(user.roleIds);
  const changed = chosen.length !== user.roleIds.length || chosen.some((id) => !user.roleIds.includes(id));
  const data = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('adminUsers.rolesTitle')}
        </Title>
        {user.admin ? (
          <Text size="sm" c="dimmed">
            {t('adminUsers.rolesFullAdmin')}
          </Text>
        ) : null}
        <MultiSelect
          label={t('adminUsers.roles')}
          description={t('adminUsers.rolesHelp')}
          placeholder={chosen.length === 0 ? t('adminUsers.rolesPlaceholder') : undefined}
          data={data}
          value={chosen}
          onChange={setChosen}
          searchable
          clearable
          nothingFoundMessage={roles.data?.length === 0 ? t('adminUsers.rolesNoneYet') : undefined}
          disabled={roles.isPending}
          comboboxProps={{ withinPortal: true }}
          maw={560}
        />
        {update.error ? <FormError error={update.error} /> : null}
        {roles.error ? <FormError error={roles.error} /> : null}
        <Group>
          <Button
            variant="default"
            disabled={!changed}
            loading={update.isPending}
            onClick={() => update.mutate({ roleIds: chosen }, { onSuccess: (u) => notify({ color: 'green', message: t('adminUsers.rolesSaved', { name: u.username }) }) })}
          >
            {t('adminUsers.rolesSave')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
};

/** /admin/users/$uid: one account: what it is, its details to edit, and its access. */
export const UserPage = ({ userId, selfId }: { userId: string; selfId: string }) => {
  const { t, i18n } = useTranslation();
  const user = useQuery(userQuery(userId));
  const update = useUpdateUser(userId);
  const access = useAdminAccess();
  const back = (
    <Anchor component={Link} to="/admin/users" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('adminUsers.back')}
      </Group>
    </Anchor>
  );
  if (user.isPending) {
    return <PageSkeleton />;
  }
  if (user.isError) {
    return (
      <Stack>
        {back}
        <ErrorState error={user.error} onRetry={() => void user.refetch()} />
      </Stack>
    );
  }
  const u = user.data;
  const invitedOnly = isInvitedOnly(u);
  // A role holder changes only ordinary accounts (with users write): administrators and other role holders are out of its reach.
  const manageable = access.can('users', 'write') && (access.full || (!u.admin && u.roleIds.length === 0));
  const linkCard = manageable ? <PasswordLinkCard user={u} self={u.id === selfId} /> : null;
  return (
    <Stack gap="md">
      {back}
      <Group gap="xs">
        <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {u.username}
        </Title>
        {u.admin ? <Badge variant="light">{t('adminUsers.adminBadge')}</Badge> : null}
        {!u.admin && u.roleIds.length > 0 ? (
          <Badge variant="light" color="grape" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
            {t('adminUsers.roleBadge')}
          </Badge>
        ) : null}
        {u.suspended ? (
          <Badge color="red" variant="filled">
            {t('adminUsers.suspendedBadge')}
          </Badge>
        ) : null}
        {invitedOnly ? (
          <Badge color="yellow" variant="light" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
            {t('adminUsers.invitedBadge')}
          </Badge>
        ) : null}
      </Group>
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <Fact label={t('adminUsers.id')}>{u.id}</Fact>
          <Fact label={t('adminUsers.uuid')}>
            <Code style={{ overflowWrap: 'anywhere' }}>{u.uuid}</Code>
          </Fact>
          <Fact label={t('adminUsers.twoFactor')}>{u.twoFactorEnabled ? t('adminUsers.on') : t('adminUsers.off')}</Fact>
          <Fact label={t('adminUsers.createdAt')}>{formatDateTime(u.createdAt, i18n.language)}</Fact>
          <Fact label={t('adminUsers.lastSignIn')}>{u.lastSignInAt ? formatDateTime(u.lastSignInAt, i18n.language) : t('adminUsers.neverSignedIn')}</Fact>
        </SimpleGrid>
      </Paper>
      {/* An invited account that never got in: the link is likely what the administrator came for. */}
      {invitedOnly ? linkCard : null}
      {access.full ? <RolesCard key={u.updatedAt} user={u} /> : null}
      {manageable ? (
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminUsers.detailsTitle')}
          </Title>
          <UserForm
            key={u.updatedAt}
            canMakeAdmin={access.full}
            user={u}
            submitLabel={t('adminUsers.save')}
            pending={update.isPending}
            error={update.error}
            onSubmit={(values) => {
              // Only what changed is sent; an empty password keeps the current one.
              const body = {
                ...(values.username !== u.username ? { username: values.username } : {}),
                ...(values.email !== u.email ? { email: values.email } : {}),
                ...(values.name !== u.name ? { name: values.name } : {}),
                ...(values.admin !== u.admin ? { admin: values.admin } : {}),
                ...(values.password ? { password: values.password } : {}),
              };
              update.mutate(body, { onSuccess: () => notify({ color: 'green', message: t('adminUsers.saved') }) });
            }}
          />
        </Stack>
      </Paper>
      ) : null}
      {invitedOnly ? null : linkCard}
      {manageable ? <AccessCard user={u} self={u.id === selfId} /> : null}
    </Stack>
  );
};
