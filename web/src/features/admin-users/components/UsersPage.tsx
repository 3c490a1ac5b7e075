import { Anchor, Badge, Button, Card, Group, Modal, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ListSkeleton } from '@/components/Skeletons';
import { type AdminUser, isInvitedOnly, useCreateUser, usersQuery } from '@/features/admin-users/api';
import { useAdminAccess } from '@/features/auth/admin-access';
import { UserForm } from '@/features/admin-users/components/UserForm';
import { notify } from '@/lib/notify';

export interface UsersSearch {
  q?: string;
  page?: number;
}

const UserBadges = ({ user }: { user: AdminUser }) => {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {user.admin ? <Badge variant="light">{t('adminUsers.adminBadge')}</Badge> : null}
      {!user.admin && user.roleIds.length > 0 ? (
        <Badge variant="light" color="grape" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
          {t('adminUsers.roleBadge')}
        </Badge>
      ) : null}
      {user.suspended ? (
        <Badge variant="filled" color="red">
          {t('adminUsers.suspendedBadge')}
        </Badge>
      ) : null}
      {isInvitedOnly(user) ? (
        <Badge variant="light" color="yellow" styles={{ label: { color: 'var(--mantine-color-text)' } }} title={t('adminUsers.invitedHint')}>
          {t('adminUsers.invitedBadge')}
        </Badge>
      ) : null}
      {user.twoFactorEnabled ? (
        <Badge variant="light" color="teal" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
          {t('adminUsers.twoFactorBadge')}
        </Badge>
      ) : null}
    </Group>
  );
};

/** /admin/users: every account, searchable and paged (both kept in the address), and a new one. */
export const UsersPage = ({ search, onSearchChange, startCreating = false }: { search: UsersSearch; onSearchChange: (next: UsersSearch) => void; startCreating?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const [typed, setTyped] = useState(search.q ?? '');
  const list = useQuery(usersQuery(search.q ?? '', page));
  const create = useCreateUser();
  const access = useAdminAccess();
  const canWrite = access.can('users', 'write');
  const [creating, setCreating] = useState(startCreating && canWrite);

  // The address follows the search box a moment after typing stops.
  useEffect(() => {
    const next = typed.trim();
    if (next === (search.q ?? '')) {
      return undefined;
    }
    const timer = setTimeout(() => onSearchChange({ q: next || undefined }), 300);
    return () => clearTimeout(timer);
  }, [typed, search.q, onSearchChange]);

  const newButton = canWrite ? <Button onClick={() => setCreating(true)}>{t('adminUsers.create')}</Button> : null;

  const body = (
    <QueryListBody
      query={list}
      loading={<ListSkeleton rows={4} />}
      isEmpty={(data) => data.users.length === 0}
      empty={
        search.q ? (
          <EmptyState icon={<IconSearch />} title={t('adminUsers.noMatchTitle')} description={t('adminUsers.noMatchText', { query: search.q })} />
        ) : (
          <EmptyState icon={<IconUsers />} title={t('adminUsers.emptyTitle')} description={t('adminUsers.emptyText')} action={newButton} />
        )
      }
    >
      {(data) => {
        const { users, total, totalPages } = data;
        return (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('adminUsers.count', { count: total })}
            </Text>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-busy={list.isPlaceholderData || undefined}>
              {users.map((user) => (
                <Card key={user.id} withBorder padding="sm" component="li" aria-label={user.username}>
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap="xs">
                        <Anchor renderRoot={(props) => <Link {...props} to="/admin/users/$uid" params={{ uid: user.id }} />} fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {user.username}
                        </Anchor>
                        <UserBadges user={user} />
                      </Group>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {user.name ? `${user.name} · ${user.email}` : user.email}
                      </Text>
                    </Stack>
                    <Button variant="default" size="xs" renderRoot={(props) => <Link {...props} to="/admin/users/$uid" params={{ uid: user.id }} />} aria-label={t('adminUsers.manageOf', { name: user.username })}>
                      {t('adminUsers.manage')}
                    </Button>
                  </Group>
                </Card>
              ))}
            </Stack>
            {totalPages > 1 ? (
              <Group justify="center">
                <Pagination
                  total={totalPages}
                  value={Math.min(page, totalPages)}
                  onChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })}
                  getItemProps={(p) => ({ 'aria-label': t('adminUsers.page', { page: p }) })}
                  getControlProps={(control) => ({
                    'aria-label': t(control === 'previous' ? 'adminUsers.previousPage' : control === 'next' ? 'adminUsers.nextPage' : control === 'first' ? 'adminUsers.firstPage' : 'adminUsers.lastPage'),
                  })}
                  size="sm"
                />
              </Group>
            ) : null}
          </Stack>
        );
      }}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminUsers.title')}
        </Title>
        {list.data && list.data.users.length > 0 ? newButton : null}
      </Group>
      <TextInput leftSection={<IconSearch size={16} aria-hidden />} label={t('adminUsers.search')} placeholder={t('adminUsers.searchPlaceholder')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} type="search" />
      {body}
      <Modal
        opened={creating}
        onClose={() => {
          if (!create.isPending) {
            create.reset();
            setCreating(false);
          }
        }}
        title={t('adminUsers.createTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
      >
        <UserForm
          canMakeAdmin={access.full}
          submitLabel={t('adminUsers.create')}
          pending={create.isPending}
          error={create.error}
          onCancel={() => setCreating(false)}
          onSubmit={(values) =>
            create.mutate(values, {
              onSuccess: (user) => {
                notify({ color: 'green', message: t('adminUsers.created', { name: user.username }) });
                setCreating(false);
                void navigate({ to: '/admin/users/$uid', params: { uid: user.id } });
              },
            })
          }
        />
      </Modal>
    </Stack>
  );
};
