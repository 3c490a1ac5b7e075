import { Anchor, Badge, Button, Card, Code, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { CardsSkeleton } from '@/components/Skeletons';
import { serverQuery, type ServerDetails } from '@/features/server/api';
import { serverMountsQuery, useReinstallServer, useRenameServer } from '@/features/server-settings/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

/** How often the details are read again while the node reinstalls the server. */
const INSTALL_POLL_MS = 1500;

type Server = ServerDetails;

/** A labelled value with a copy button; long values wrap instead of widening the page. */
const CopyRow = ({ label, value, copyLabel, children }: { label: string; value: string; copyLabel: string; children?: ReactNode }) => (
  <Stack gap={2} style={{ minWidth: 0 }}>
    <Text component="dt" size="xs" c="dimmed">
      {label}
    </Text>
    <Group component="dd" m={0} gap={4} wrap="nowrap" align="center">
      {children ?? <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{value}</Code>}
      <CopyButton value={value} label={copyLabel} />
    </Group>
  </Stack>
);

const RenameCard = ({ serverId, server }: { serverId: string; server: Server }) => {
  const { t } = useTranslation();
  const rename = useRenameServer(serverId);
  const [name, setName] = useState(server.name);
  const [description, setDescription] = useState(server.description ?? '');
  const fields = rename.error instanceof ApiError ? fieldErrors(rename.error) : {};
  const unchanged = name.trim() === server.name && description === (server.description ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || unchanged) {
      return;
    }
    rename.mutate(
      { name: name.trim(), description: description.trim() === '' ? null : description },
      { onSuccess: () => notify({ color: 'teal', message: t('serverSettings.rename.done') }) },
    );
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-rename">
      <Title order={2} size="h4" id="settings-rename" mb="sm">
        {t('serverSettings.rename.title')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('serverSettings.rename.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={191} required error={fields.name ?? (name.trim() ? undefined : t('serverSettings.rename.nameRequired'))} />
          <Textarea
            label={t('serverSettings.rename.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={1024}
            autosize
            minRows={2}
            error={fields.description}
          />
          <FormError error={Object.keys(fields).length > 0 ? null : rename.error} />
          <Group>
            <Button type="submit" loading={rename.isPending} disabled={!name.trim() || unchanged}>
              {t('serverSettings.rename.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
};

const SftpCard = ({ server }: { server: Server }) => {
  const { t } = useTranslation();
  const { host, port, username } = server.sftp;
  const address = `sftp://${username}@${host}:${port}`;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-sftp">
      <Title order={2} size="h4" id="settings-sftp">
        {t('serverSettings.sftp.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('serverSettings.sftp.text')}
      </Text>
      <Stack gap="sm" component="dl" m={0}>
        <CopyRow label={t('serverSettings.sftp.address')} value={address} copyLabel={t('serverSettings.sftp.copyAddress')}>
          <Anchor href={address} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {address}
          </Anchor>
        </CopyRow>
        <CopyRow label={t('serverSettings.sftp.username')} value={username} copyLabel={t('serverSettings.sftp.copyUsername')} />
      </Stack>
      <Text size="sm" c="dimmed" mt="sm">
        {t('serverSettings.sftp.password')}
      </Text>
    </Card>
  );
};

const InfoCard = ({ server }: { server: Server }) => {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-info">
      <Title order={2} size="h4" id="settings-info" mb="sm">
        {t('serverSettings.info.title')}
      </Title>
      <Stack gap="sm" component="dl" m={0}>
        <CopyRow label={t('serverSettings.info.identifier')} value={server.identifier} copyLabel={t('serverSettings.info.copyIdentifier')} />
        <CopyRow label={t('serverSettings.info.uuid')} value={server.uuid} copyLabel={t('serverSettings.info.copyUuid')} />
        <CopyRow label={t('serverSettings.info.id')} value={server.id} copyLabel={t('serverSettings.info.copyId')} />
      </Stack>
    </Card>
  );
};

const ReinstallCard = ({ serverId, server }: { serverId: string; server: Server }) => {
  const { t } = useTranslation();
  const reinstall = useReinstallServer(serverId);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const installing = server.status === 'installing';
  const close = () => {
    setOpen(false);
    setTyped('');
    reinstall.reset();
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-reinstall">
      <Group justify="space-between" gap="xs" mb="xs" wrap="wrap">
        <Title order={2} size="h4" id="settings-reinstall">
          {t('serverSettings.reinstall.title')}
        </Title>
        {installing ? (
          <Badge color="blue" variant="light" data-testid="install-status">
            {t('serverSettings.reinstall.installing')}
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" mb="sm">
        {t('serverSettings.reinstall.text')}
      </Text>
      <Button color="red" onClick={() => setOpen(true)} disabled={installing || server.suspended}>
        {t('serverSettings.reinstall.open')}
      </Button>
      <Modal opened={open} onClose={close} title={t('serverSettings.reinstall.confirmTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (typed !== server.name) {
              return;
            }
            reinstall.mutate(undefined, {
              onSuccess: () => {
                notify({ color: 'teal', message: t('serverSettings.reinstall.started') });
                close();
              },
            });
          }}
        >
          <Stack>
            <Text size="sm">{t('serverSettings.reinstall.confirmText')}</Text>
            <TextInput label={t('serverSettings.reinstall.typeName', { name: server.name })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
            {reinstall.error ? <FormError error={reinstall.error} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={typed !== server.name} loading={reinstall.isPending}>
                {t('serverSettings.reinstall.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
};
/** The mounts the server gets, when it has any: name, where they appear, read-only or not. */
const MountsCard = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const mounts = useQuery(serverMountsQuery(serverId));
  if (!mounts.data || mounts.data.length === 0) {
    return null;
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="settings-mounts">
      <Title order={2} size="h4" id="settings-mounts" mb={4}>
        {t('serverSettings.mounts.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('serverSettings.mounts.intro')}
      </Text>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {mounts.data.map((m) => (
          <Stack key={`${m.name}\n${m.target}`} gap={2} component="li">
            <Group gap="xs">
              <Text fw={600} size="sm">
                {m.name}
              </Text>
              <Badge variant="light" color={m.readOnly ? 'gray' : 'blue'} styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                {m.readOnly ? t('serverSettings.mounts.readOnly') : t('serverSettings.mounts.readWrite')}
              </Badge>
            </Group>
            <Code style={{ overflowWrap: 'anywhere', alignSelf: 'flex-start' }}>{m.target}</Code>
            {m.description ? (
              <Text size="sm" c="dimmed">
                {m.description}
              </Text>
            ) : null}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
};

/** /server/$id/settings: rename, SFTP details, the server's identifiers and reinstall, each shown to whoever may use it. */
export const ServerSettingsPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const server = useQuery({ ...serverQuery(serverId), refetchInterval: (query) => (query.state.data?.status === 'installing' ? INSTALL_POLL_MS : false) });
  if (server.isPending) {
    return <CardsSkeleton cards={4} />;
  }
  if (server.isError) {
    return <ErrorState error={server.error} onRetry={() => void server.refetch()} />;
  }
  const granted = new Set(server.data.permissions);
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('serverSettings.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {granted.has('server.files.sftp') ? <SftpCard server={server.data} /> : null}
        {granted.has('server.settings.rename') ? <RenameCard serverId={serverId} key={`${server.data.name}\n${server.data.description ?? ''}`} server={server.data} /> : null}
        <InfoCard server={server.data} />
        <MountsCard serverId={serverId} />
        {granted.has('server.settings.reinstall') ? <ReinstallCard serverId={serverId} server={server.data} /> : null}
      </SimpleGrid>
    </Stack>
  );
};
