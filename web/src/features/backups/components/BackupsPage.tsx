import { Badge, Button, Card, Checkbox, Code, Group, Menu, Modal, Progress, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconDotsVertical, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type Backup, backupDownloadUrl, backupsQuery, useCreateBackup, useDeleteBackup, useRestoreBackup, useToggleLock } from '@/features/backups/api';
import { serverQuery } from '@/features/server/api';
import { formatBytes, formatDateTime } from '@/lib/format';
import { notify, notifyError } from '@/lib/notify';

// Colours at AA contrast (light green and red badges are not: 3.8:1).
const STATUS_BADGE = {
  in_progress: { color: 'blue', variant: 'light' },
  successful: { color: 'teal.9', variant: 'filled' },
  failed: { color: 'red.9', variant: 'filled' },
} as const;

const CreateDialog = ({ serverId, onClose }: { serverId: string; onClose: () => void }) => {
  const { t } = useTranslation();
  const create = useCreateBackup(serverId);
  const [name, setName] = useState('');
  const [ignored, setIgnored] = useState('');
  return (
    <Modal opened onClose={onClose} title={t('backups.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { ...(name.trim() ? { name: name.trim() } : {}), ...(ignored.trim() ? { ignored } : {}) },
            {
              onSuccess: () => {
                notify({ color: 'green', message: t('backups.started') });
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <TextInput label={t('backups.name')} description={t('backups.nameHelp')} maxLength={191} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
          <Textarea
            label={t('backups.ignored')}
            description={t('backups.ignoredHelp')}
            autosize
            minRows={3}
            value={ignored}
            onChange={(e) => setIgnored(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          {create.error ? <FormError error={create.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('backups.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** Restore asks for the backup's name to be typed, and whether to delete the server's files first. */
const RestoreDialog = ({ serverId, backup, onClose }: { serverId: string; backup: Backup; onClose: () => void }) => {
  const { t } = useTranslation();
  const restore = useRestoreBackup(serverId);
  const [typed, setTyped] = useState('');
  const [truncate, setTruncate] = useState(false);
  return (
    <Modal opened onClose={onClose} title={t('backups.restoreTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          restore.mutate(
            { backup: backup.id, truncate },
            {
              onSuccess: () => {
                notify({ color: 'green', message: t('backups.restoring') });
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <Text size="sm">{t('backups.restoreText')}</Text>
          <Checkbox label={t('backups.truncate')} description={t('backups.truncateHelp')} checked={truncate} onChange={(e) => setTruncate(e.currentTarget.checked)} />
          <TextInput label={t('backups.typeName', { name: backup.name })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
          {restore.error ? <FormError error={restore.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={typed !== backup.name} loading={restore.isPending}>
              {t('backups.restore')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** /server/$id/backups: usage against the limit, the backups with their state (polled while one runs), and what to do with them. */
export const BackupsPage = ({ serverId }: { serverId: string }) => {
  const { t, i18n } = useTranslation();
  const server = useQuery(serverQuery(serverId));
  const list = useQuery(backupsQuery(serverId));
  const lock = useToggleLock(serverId);
  const remove = useConfirmedAction({
    mutation: useDeleteBackup(serverId),
    variables: (b: Backup) => b.id,
    title: t('backups.deleteTitle'),
    message: (b) => t('backups.deleteText', { name: b.name }),
    confirmLabel: t('backups.delete'),
    danger: true,
    successMessage: () => t('backups.deleted'),
    keepOpenOnError: true,
  });
  const [creating, setCreating] = useState(false);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const granted = new Set(server.data?.permissions ?? []);

  return (
    <QueryListBody query={list} waiting={server.isPending}>
      {(backups) => {
        const { backupCount, backupLimit } = backups.meta;
        const full = backupLimit !== null && backupCount >= backupLimit;
        const createButton = granted.has('server.backup.create') ? (
          <Button onClick={() => setCreating(true)} disabled={full}>
            {t('backups.create')}
          </Button>
        ) : null;

        const download = async (b: Backup) => {
          try {
            window.location.assign(await backupDownloadUrl(serverId, b.id));
          } catch (error) {
            notifyError(error);
          }
        };

        return (
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h3">
                {t('backups.title')}
              </Title>
              {createButton}
            </Group>
            <Stack gap={4}>
              <Text size="sm">{backupLimit === null ? t('backups.usageUnlimited', { count: backupCount }) : backupLimit === 0 ? t('backups.disabled') : t('backups.usage', { count: backupCount, limit: backupLimit })}</Text>
              {backupLimit ? <Progress value={Math.min(100, (backupCount / backupLimit) * 100)} aria-label={t('backups.usageLabel')} color={full ? 'red' : undefined} /> : null}
              {full && backupLimit ? (
                <Text size="sm" c="dimmed">
                  {t('backups.full')}
                </Text>
              ) : null}
            </Stack>
            {backups.data.length === 0 ? (
              <EmptyState title={t('backups.emptyTitle')} description={t('backups.emptyText')} />
            ) : (
              <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {backups.data.map((b) => (
                  <Card key={b.id} withBorder component="li" padding="sm" aria-label={b.name} data-status={b.status}>
                    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                      <Stack gap={2} style={{ minWidth: 0 }}>
                        <Group gap="xs">
                          {b.isLocked ? <IconLock size={16} aria-label={t('backups.locked')} role="img" /> : null}
                          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                            {b.name}
                          </Text>
                          <Badge {...STATUS_BADGE[b.status]}>{t(`backups.status.${b.status}`)}</Badge>
                        </Group>
                        <Text size="sm" c="dimmed">
                          {formatDateTime(b.createdAt, i18n.language)}
                          {b.status === 'successful' ? ` · ${formatBytes(b.bytes, i18n.language)}` : ''}
                        </Text>
                        {b.status === 'in_progress' ? <Progress value={100} animated striped aria-label={t('backups.inProgress')} /> : null}
                        {b.checksum ? (
                          <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} fz="xs">
                            {b.checksum}
                          </Code>
                        ) : null}
                      </Stack>
                      {b.status === 'in_progress' ? null : (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <Button variant="default" size="xs" style={{ flexShrink: 0 }} rightSection={<IconDotsVertical size={14} aria-hidden />} aria-label={t('backups.actionsOf', { name: b.name })}>
                              {t('backups.actions')}
                            </Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {granted.has('server.backup.download') && b.status === 'successful' ? <Menu.Item onClick={() => void download(b)}>{t('backups.download')}</Menu.Item> : null}
                            {granted.has('server.backup.restore') && b.status === 'successful' ? <Menu.Item onClick={() => setRestoring(b)}>{t('backups.restore')}</Menu.Item> : null}
                            {granted.has('server.backup.delete') ? <Menu.Item onClick={() => lock.mutate(b.id, { onError: notifyError })}>{b.isLocked ? t('backups.unlock') : t('backups.lock')}</Menu.Item> : null}
                            {granted.has('server.backup.delete') && !b.isLocked ? (
                              <Menu.Item color="red" onClick={() => remove.ask(b)}>
                                {t('backups.delete')}
                              </Menu.Item>
                            ) : null}
                            {granted.has('server.backup.download') || granted.has('server.backup.restore') || granted.has('server.backup.delete') ? null : <Menu.Label>{t('backups.noActions')}</Menu.Label>}
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Group>
                  </Card>
                ))}
              </Stack>
            )}
            {creating ? <CreateDialog serverId={serverId} onClose={() => setCreating(false)} /> : null}
            {restoring ? <RestoreDialog serverId={serverId} backup={restoring} onClose={() => setRestoring(null)} /> : null}
            {remove.dialog}
          </Stack>
        );
      }}
    </QueryListBody>
  );
};
