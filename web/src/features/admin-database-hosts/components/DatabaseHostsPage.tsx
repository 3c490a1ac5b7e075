import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconDatabase, IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type DatabaseHost, type HostTest, hostsQuery, nodeNamesQuery, useDeleteHost, useSaveHost, useTestHost } from '@/features/admin-database-hosts/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify, notifyError } from '@/lib/notify';
import { useCanWrite } from '@/features/auth/admin-access';

/** New (`host` undefined) or edit; the password is never shown back: empty keeps the stored one. */
const HostDialog = ({ host, onClose }: { host?: DatabaseHost; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveHost();
  const nodes = useQuery(nodeNamesQuery());
  const [name, setName] = useState(host?.name ?? '');
  const [address, setAddress] = useState(host?.host ?? '');
  const [port, setPort] = useState<number | string>(host?.port ?? 3306);
  const [username, setUsername] = useState(host?.username ?? '');
  const [password, setPassword] = useState('');
  const [maxDatabases, setMaxDatabases] = useState<number | string>(host?.maxDatabases ?? '');
  const [nodeId, setNodeId] = useState<string | null>(host?.nodeId ?? null);
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: name.trim(),
      host: address.trim(),
      port: typeof port === 'number' ? port : Number(port),
      username: username.trim(),
      maxDatabases: typeof maxDatabases === 'number' ? maxDatabases : null,
      nodeId,
      // A new host always sends its password (empty for a passwordless account); an edit only when one was typed.
      ...(host === undefined || password !== '' ? { password } : {}),
    };
    save.mutate(
      { id: host?.id, body },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(host ? 'adminDatabaseHosts.saved' : 'adminDatabaseHosts.created', { name: saved.name }) });
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={host ? t('adminDatabaseHosts.editTitle', { name: host.name }) : t('adminDatabaseHosts.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('adminDatabaseHosts.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} required data-autofocus />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('adminDatabaseHosts.host')} description={t('adminDatabaseHosts.hostHelp')} value={address} onChange={(e) => setAddress(e.currentTarget.value)} error={fields.host} required />
            <NumberInput label={t('adminDatabaseHosts.port')} value={port} onChange={setPort} min={1} max={65535} allowDecimal={false} error={fields.port} required />
            <TextInput label={t('adminDatabaseHosts.username')} value={username} onChange={(e) => setUsername(e.currentTarget.value)} error={fields.username} required autoComplete="off" />
            <PasswordInput
              label={t('adminDatabaseHosts.password')}
              description={host ? t('adminDatabaseHosts.passwordKeep') : t('adminDatabaseHosts.passwordHelp')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fields.password}
              autoComplete="new-password"
            />
            <NumberInput label={t('adminDatabaseHosts.maxDatabases')} description={t('adminDatabaseHosts.maxDatabasesHelp')} value={maxDatabases} onChange={setMaxDatabases} min={0} allowDecimal={false} error={fields.maxDatabases} />
            <Select
              label={t('adminDatabaseHosts.node')}
              description={t('adminDatabaseHosts.nodeHelp')}
              placeholder={t('adminDatabaseHosts.global')}
              data={(nodes.data ?? []).map((n) => ({ value: n.id, label: n.name }))}
              value={nodeId}
              onChange={setNodeId}
              clearable
              error={fields.nodeId}
            />
          </SimpleGrid>
          {save.error && Object.keys(fields).length === 0 ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {host ? t('adminDatabaseHosts.save') : t('adminDatabaseHosts.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const TestResult = ({ result }: { result: HostTest }) => {
  const { t } = useTranslation();
  return result.connected ? (
    <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status" title={t('adminDatabaseHosts.testOk')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
      {t('adminDatabaseHosts.testOkText', { version: result.version ?? '' })}
    </Alert>
  ) : (
    <Alert color="red" variant="light" icon={<IconCircleX aria-hidden />} role="alert" title={t('adminDatabaseHosts.testFailed')}>
      {t('adminDatabaseHosts.testFailedText', { reason: result.error?.message ?? '' })}
    </Alert>
  );
};

const HostCard = ({ host, nodeName, onEdit, onDelete }: { host: DatabaseHost; nodeName?: string; onEdit?: () => void; onDelete?: () => void }) => {
  const { t } = useTranslation();
  const test = useTestHost();
  return (
    <Card withBorder padding="sm" component="li" aria-label={host.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {host.name}
              </Text>
              <Badge variant="light" color={host.nodeId ? 'blue' : 'gray'} styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                {host.nodeId ? (nodeName ?? t('adminDatabaseHosts.nodeId', { id: host.nodeId })) : t('adminDatabaseHosts.global')}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {host.username}@{host.host}:{host.port}
            </Text>
            <Text size="sm">
              {host.maxDatabases === null
                ? t('adminDatabaseHosts.usageUnlimited', { count: host.databases })
                : host.maxDatabases === 0
                  ? t('adminDatabaseHosts.usageClosed', { count: host.databases })
                  : t('adminDatabaseHosts.usage', { count: host.databases, max: host.maxDatabases })}
            </Text>
          </Stack>
          <Group gap="xs">
            {onEdit && onDelete ? (
            <>
<Button
              variant="light"
              size="xs"
              leftSection={<IconPlugConnected size={14} aria-hidden />}
              loading={test.isPending}
              onClick={() => test.mutate(host.id, { onError: notifyError })}
              aria-label={t('adminDatabaseHosts.testOf', { name: host.name })}
            >
              {t('adminDatabaseHosts.test')}
            </Button>
            <Tooltip label={t('adminDatabaseHosts.edit')}>
              <ActionIcon variant="subtle" size="lg" onClick={onEdit} aria-label={t('adminDatabaseHosts.editOf', { name: host.name })}>
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('adminDatabaseHosts.delete')}>
              <ActionIcon variant="subtle" color="red" size="lg" onClick={onDelete} aria-label={t('adminDatabaseHosts.deleteOf', { name: host.name })}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            </>
            ) : null}
          </Group>
        </Group>
        {test.data ? <TestResult result={test.data} /> : null}
      </Stack>
    </Card>
  );
};

/** /admin/database-hosts: the MySQL/MariaDB servers customer databases are made on; test, edit, delete. */
export const DatabaseHostsPage = () => {
  const { t } = useTranslation();
  const list = useQuery(hostsQuery());
  const nodes = useQuery(nodeNamesQuery());
  const remove = useConfirmedAction({
    mutation: useDeleteHost(),
    variables: (host: DatabaseHost) => host.id,
    title: t('adminDatabaseHosts.deleteTitle'),
    message: (host) => t('adminDatabaseHosts.deleteText', { name: host.name }),
    confirmLabel: t('adminDatabaseHosts.delete'),
    danger: true,
    successMessage: (host) => t('adminDatabaseHosts.deleted', { name: host.name }),
  });
  const [editing, setEditing] = useState<DatabaseHost | 'new' | null>(null);
  const names = new Map((nodes.data ?? []).map((n) => [n.id, n.name]));
  const canWrite = useCanWrite('database_hosts');
  const newButton = canWrite ? <Button onClick={() => setEditing('new')}>{t('adminDatabaseHosts.create')}</Button> : null;

  const body = (
    <QueryListBody query={list} empty={<EmptyState icon={<IconDatabase />} title={t('adminDatabaseHosts.emptyTitle')} description={t('adminDatabaseHosts.emptyText')} action={newButton} />}>
      {(data) => (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.map((host) => (
            <HostCard key={host.id} host={host} nodeName={host.nodeId ? names.get(host.nodeId) : undefined} onEdit={canWrite ? () => setEditing(host) : undefined} onDelete={canWrite ? () => remove.ask(host) : undefined} />
          ))}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminDatabaseHosts.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('adminDatabaseHosts.intro')}
      </Text>
      {body}
      {editing ? <HostDialog host={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
