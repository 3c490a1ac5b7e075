import { ActionIcon, Alert, Badge, Button, Card, Checkbox, Group, Modal, NumberInput, PasswordInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconArchive, IconCircleCheck, IconCircleX, IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import {
  type BackupHost,
  type BackupHostTest,
  backupHostsQuery,
  useDeleteBackupHost,
  useSaveBackupHost,
  useTestBackupHost,
} from '@/features/admin-backup-hosts/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify, notifyError } from '@/lib/notify';
import { useCanWrite } from '@/features/auth/admin-access';

const TestResult = ({ result }: { result: BackupHostTest }) => {
  const { t } = useTranslation();
  return result.ok ? (
    <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status" title={t('adminBackupHosts.testOk')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
      {t('adminBackupHosts.testOkText')}
    </Alert>
  ) : (
    <Alert color="red" variant="light" icon={<IconCircleX aria-hidden />} role="alert" title={t('adminBackupHosts.testFailed')}>
      {t('adminBackupHosts.testFailedText', { reason: (result.error ?? '').replace(/\.+$/, '') })}
    </Alert>
  );
};

/** Tests the host's stored settings and shows what came back. */
const TestButton = ({ host }: { host: BackupHost }) => {
  const { t } = useTranslation();
  const test = useTestBackupHost();
  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlugConnected size={14} aria-hidden />}
          loading={test.isPending}
          onClick={() => test.mutate(host.id, { onError: notifyError })}
          aria-label={t('adminBackupHosts.testOf', { name: host.name })}
        >
          {t('adminBackupHosts.test')}
        </Button>
      </Group>
      {test.data ? <TestResult result={test.data} /> : null}
    </Stack>
  );
};

/** New (`host` undefined) or edit; the secret key is never shown back: empty keeps the stored one. */
const HostDialog = ({ host, onClose }: { host?: BackupHost; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveBackupHost();
  const [saved, setSaved] = useState<BackupHost | undefined>(host);
  const [name, setName] = useState(host?.name ?? '');
  const [adapter, setAdapter] = useState<'wings' | 's3'>(host?.adapter ?? 's3');
  const [endpoint, setEndpoint] = useState(host?.endpoint ?? '');
  const [region, setRegion] = useState(host?.region ?? '');
  const [bucket, setBucket] = useState(host?.bucket ?? '');
  const [keyPrefix, setKeyPrefix] = useState(host?.keyPrefix ?? '');
  const [accessKeyId, setAccessKeyId] = useState(host?.accessKeyId ?? '');
  const [secretAccessKey, setSecretAccessKey] = useState('');
  const [pathStyle, setPathStyle] = useState(host?.pathStyle ?? false);
  const [partSizeMib, setPartSizeMib] = useState<number | string>(host?.partSizeMib ?? 128);
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const s3 = {
      endpoint: endpoint.trim() || null,
      region: region.trim() || null,
      bucket: bucket.trim(),
      keyPrefix: keyPrefix.trim(),
      accessKeyId: accessKeyId.trim(),
      pathStyle,
      partSizeMib: typeof partSizeMib === 'number' ? partSizeMib : Number(partSizeMib),
      // Sent only when typed: an edit without it keeps the stored key.
      ...(secretAccessKey !== '' ? { secretAccessKey } : {}),
    };
    save.mutate(
      { id: saved?.id, body: { name: name.trim(), adapter, ...(adapter === 's3' ? s3 : {}) } },
      {
        onSuccess: (result) => {
          notify({ color: 'green', message: t(saved ? 'adminBackupHosts.saved' : 'adminBackupHosts.created', { name: result.name }) });
          setSecretAccessKey('');
          // Stays open on the saved host, so its connection can be tested right away.
          setSaved(result);
        },
      },
    );
  };
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={saved ? t('adminBackupHosts.editTitle', { name: saved.name }) : t('adminBackupHosts.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate aria-label={t('adminBackupHosts.formLabel')}>
        <Stack gap="sm">
          <TextInput label={t('adminBackupHosts.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} required data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="backup-host-adapter-label">
              {t('adminBackupHosts.adapter')}
            </Text>
            <SegmentedControl
              aria-labelledby="backup-host-adapter-label"
              value={adapter}
              onChange={(v) => setAdapter(v === 'wings' ? 'wings' : 's3')}
              data={[
                { value: 's3', label: t('adminBackupHosts.adapterS3') },
                { value: 'wings', label: t('adminBackupHosts.adapterWings') },
              ]}
            />
            <Text size="xs" c="dimmed">
              {adapter === 's3' ? t('adminBackupHosts.adapterS3Help') : t('adminBackupHosts.adapterWingsHelp')}
            </Text>
          </Stack>
          {adapter === 's3' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={t('adminBackupHosts.endpoint')}
                description={t('adminBackupHosts.endpointHelp')}
                placeholder="https://s3.example.com"
                value={endpoint}
                onChange={(e) => setEndpoint(e.currentTarget.value)}
                error={fields.endpoint}
              />
              <TextInput label={t('adminBackupHosts.region')} description={t('adminBackupHosts.regionHelp')} placeholder="us-east-1" value={region} onChange={(e) => setRegion(e.currentTarget.value)} error={fields.region} />
              <TextInput label={t('adminBackupHosts.bucket')} value={bucket} onChange={(e) => setBucket(e.currentTarget.value)} error={fields.bucket} required />
              <TextInput label={t('adminBackupHosts.keyPrefix')} description={t('adminBackupHosts.keyPrefixHelp')} placeholder="hatchery/" value={keyPrefix} onChange={(e) => setKeyPrefix(e.currentTarget.value)} error={fields.keyPrefix} />
              <TextInput label={t('adminBackupHosts.accessKeyId')} value={accessKeyId} onChange={(e) => setAccessKeyId(e.currentTarget.value)} error={fields.accessKeyId} required autoComplete="off" />
              <PasswordInput
                label={t('adminBackupHosts.secretAccessKey')}
                description={saved?.secretSet ? t('adminBackupHosts.secretKeep') : t('adminBackupHosts.secretHelp')}
                value={secretAccessKey}
                onChange={(e) => setSecretAccessKey(e.currentTarget.value)}
                error={fields.secretAccessKey}
                required={!saved?.secretSet}
                autoComplete="new-password"
              />
              <NumberInput
                label={t('adminBackupHosts.partSize')}
                description={t('adminBackupHosts.partSizeHelp')}
                value={partSizeMib}
                onChange={setPartSizeMib}
                min={5}
                max={5120}
                allowDecimal={false}
                error={fields.partSizeMib}
              />
              <Checkbox
                mt="lg"
                label={t('adminBackupHosts.pathStyle')}
                description={t('adminBackupHosts.pathStyleHelp')}
                checked={pathStyle}
                onChange={(e) => setPathStyle(e.currentTarget.checked)}
              />
            </SimpleGrid>
          ) : null}
          {save.error && Object.keys(fields).length === 0 ? <FormError error={save.error} /> : null}
          {saved && saved.adapter === 's3' ? <TestButton host={saved} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {saved ? t('common.close') : t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {saved ? t('adminBackupHosts.save') : t('adminBackupHosts.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const HostCard = ({ host, onEdit, onDelete }: { host: BackupHost; onEdit?: () => void; onDelete?: () => void }) => {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" component="li" aria-label={host.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {host.name}
              </Text>
              <Badge variant="light" color={host.adapter === 's3' ? 'blue' : 'gray'} styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                {host.adapter === 's3' ? t('adminBackupHosts.adapterS3') : t('adminBackupHosts.adapterWings')}
              </Badge>
            </Group>
            {host.adapter === 's3' ? (
              <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {`${host.endpoint ?? 'AWS'} · ${host.bucket ?? ''}${host.keyPrefix ? `/${host.keyPrefix}` : ''} · ${host.partSizeMib} MiB`}
              </Text>
            ) : null}
            <Text size="sm">{t('adminBackupHosts.usage', { nodes: host.nodes, backups: host.backups })}</Text>
          </Stack>
          {onEdit && onDelete ? (
<Group gap="xs">
            <Tooltip label={t('adminBackupHosts.edit')}>
              <ActionIcon variant="subtle" size="lg" onClick={onEdit} aria-label={t('adminBackupHosts.editOf', { name: host.name })}>
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('adminBackupHosts.delete')}>
              <ActionIcon variant="subtle" color="red" size="lg" onClick={onDelete} aria-label={t('adminBackupHosts.deleteOf', { name: host.name })}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
          ) : null}
        </Group>
        {host.adapter === 's3' && onEdit ? <TestButton host={host} /> : null}
      </Stack>
    </Card>
  );
};

/** /admin/backup-hosts: where nodes send their backups (on the node, or an S3 bucket); test, edit, delete. */
export const BackupHostsPage = () => {
  const { t } = useTranslation();
  const list = useQuery(backupHostsQuery());
  const remove = useConfirmedAction({
    mutation: useDeleteBackupHost(),
    variables: (host: BackupHost) => host.id,
    title: t('adminBackupHosts.deleteTitle'),
    message: (host) => t('adminBackupHosts.deleteText', { name: host.name }),
    confirmLabel: t('adminBackupHosts.delete'),
    danger: true,
    successMessage: (host) => t('adminBackupHosts.deleted', { name: host.name }),
  });
  const [editing, setEditing] = useState<BackupHost | 'new' | null>(null);
  const canWrite = useCanWrite('backup_hosts');
  const newButton = canWrite ? <Button onClick={() => setEditing('new')}>{t('adminBackupHosts.create')}</Button> : null;

  const body = (
    <QueryListBody query={list} empty={<EmptyState icon={<IconArchive />} title={t('adminBackupHosts.emptyTitle')} description={t('adminBackupHosts.emptyText')} action={newButton} />}>
      {(data) => (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.map((host) => (
            <HostCard key={host.id} host={host} onEdit={canWrite ? () => setEditing(host) : undefined} onDelete={canWrite ? () => remove.ask(host) : undefined} />
          ))}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminBackupHosts.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('adminBackupHosts.intro')}
      </Text>
      {body}
      {editing ? <HostDialog host={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
