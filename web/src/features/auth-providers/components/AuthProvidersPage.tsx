import { Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanWrite } from '@/features/auth/admin-access';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { type AuthProvider, authProvidersQuery, useDeleteAuthProvider } from '@/features/auth-providers/api';
import { AuthProviderDialog } from '@/features/auth-providers/components/AuthProviderDialog';
import { notify } from '@/lib/notify';

const badge = { styles: { label: { color: 'var(--mantine-color-text)' } } };

const ProviderCard = ({ provider, canWrite, onEdit, onDelete }: { provider: AuthProvider; canWrite: boolean; onEdit: () => void; onDelete: () => void }) => {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" component="li" aria-label={provider.name}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600}>{provider.name}</Text>
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color="blue" {...badge}>
              {t(`authProviders.types.${provider.type}`)}
            </Badge>
            <Badge variant="light" color={provider.enabled ? 'green' : 'gray'} {...badge}>
              {provider.enabled ? t('authProviders.on') : t('authProviders.off')}
            </Badge>
            {provider.showOnSignIn ? (
              <Badge variant="light" color="teal" {...badge}>
                {t('authProviders.shown')}
              </Badge>
            ) : null}
            {provider.allowRegistration ? (
              <Badge variant="light" color="grape" {...badge}>
                {t('authProviders.registers')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {provider.allowedDomains.length > 0 ? t('authProviders.domains', { domains: provider.allowedDomains.join(', ') }) : t('authProviders.anyDomain')}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Text size="sm">{t('authProviders.redirectUri')}:</Text>
            <Code style={{ overflowWrap: 'anywhere' }}>{provider.redirectUri}</Code>
            <CopyButton value={provider.redirectUri} label={t('authProviders.copyRedirectUri')} />
          </Group>
        </Stack>
        {canWrite ? (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={onEdit}>
              {t('authProviders.edit')}
            </Button>
            <Button variant="light" color="red" size="xs" onClick={onDelete}>
              {t('authProviders.delete')}
            </Button>
          </Group>
        ) : null}
      </Group>
    </Card>
  );
};

/** Administration → Sign-in providers: OpenID Connect issuers and the Discord, GitHub and Google presets. */
export const AuthProvidersPage = () => {
  const { t } = useTranslation();
  const list = useQuery(authProvidersQuery);
  const remove = useDeleteAuthProvider();
  const [editing, setEditing] = useState<AuthProvider | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AuthProvider | null>(null);
  // A role reading settings only sees the providers, not what would change them.
  const canWrite = useCanWrite('settings');
  const newButton = canWrite ? <Button onClick={() => setEditing('new')}>{t('authProviders.create')}</Button> : undefined;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('authProviders.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('authProviders.intro')}
      </Text>
      <QueryListBody
        query={list}
        errorTitle={t('authProviders.loadError')}
        empty={<EmptyState icon={<IconKey />} title={t('authProviders.emptyTitle')} description={t('authProviders.emptyText')} action={newButton} />}
      >
        {(data) => (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.map((provider) => (
              <ProviderCard key={provider.id} provider={provider} canWrite={canWrite} onEdit={() => setEditing(provider)} onDelete={() => setDeleting(provider)} />
            ))}
          </Stack>
        )}
      </QueryListBody>
      {editing ? <AuthProviderDialog provider={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          opened
          danger
          title={t('authProviders.deleteTitle', { name: deleting.name })}
          message={t('authProviders.deleteText')}
          confirmLabel={t('authProviders.delete')}
          loading={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                notify({ color: 'green', message: t('authProviders.deleted', { name: deleting.name }) });
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </Stack>
  );
};
