import { Anchor, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFolderShare, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { type Mount, mountsQuery } from '@/features/admin-mounts/api';
import { MountDialog } from '@/features/admin-mounts/components/MountDialog';
import { useCanWrite } from '@/features/auth/admin-access';

/** A mount's source → target and flags, as every list shows them. */
export const MountPaths = ({ mount }: { mount: Pick<Mount, 'source' | 'target' | 'readOnly' | 'userMountable'> }) => {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {mount.source} → {mount.target}
      </Text>
      <Badge variant="light" color={mount.readOnly ? 'gray' : 'blue'} styles={{ label: { color: 'var(--mantine-color-text)' } }}>
        {mount.readOnly ? t('adminMounts.readOnlyBadge') : t('adminMounts.readWriteBadge')}
      </Badge>
      {mount.userMountable ? (
        <Badge variant="light" color="grape" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
          {t('adminMounts.userMountableBadge')}
        </Badge>
      ) : null}
    </Group>
  );
};

/** /admin/mounts: directories of the nodes given to servers; search, create, open one. */
export const MountsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const list = useQuery(mountsQuery(deferred));
  const [creating, setCreating] = useState(false);
  const newButton = useCanWrite('mounts') ? <Button onClick={() => setCreating(true)}>{t('adminMounts.create')}</Button> : null;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminMounts.title')}
        </Title>
        {list.data && (list.data.length > 0 || deferred) ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('adminMounts.intro')}
      </Text>
      <TextInput
        label={t('adminMounts.searchLabel')}
        placeholder={t('adminMounts.searchPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
      />
      <QueryListBody
        query={list}
        empty={
          deferred ? (
            <Text c="dimmed">{t('adminMounts.noMatch', { query: deferred })}</Text>
          ) : (
            <EmptyState icon={<IconFolderShare />} title={t('adminMounts.emptyTitle')} description={t('adminMounts.emptyText')} action={newButton} />
          )
        }
      >
        {(data) => (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.map((mount) => (
              <Card key={mount.id} withBorder padding="sm" component="li" aria-label={mount.name}>
                <Stack gap={4}>
                  <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/admin/mounts/$mountId" params={{ mountId: mount.id }} />} style={{ overflowWrap: 'anywhere' }}>
                    {mount.name}
                  </Anchor>
                  {mount.description ? (
                    <Text size="sm" c="dimmed">
                      {mount.description}
                    </Text>
                  ) : null}
                  <MountPaths mount={mount} />
                </Stack>
              </Card>
            ))}
          </Stack>
        )}
      </QueryListBody>
      {creating ? <MountDialog onClose={() => setCreating(false)} onSaved={(saved) => void navigate({ to: '/admin/mounts/$mountId', params: { mountId: saved.id } })} /> : null}
    </Stack>
  );
};
