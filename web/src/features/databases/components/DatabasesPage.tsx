import { Alert, Badge, Button, Card, Code, Group, Menu, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconDatabase, IconDotsVertical } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { databasesQuery, useCreateDatabase, useDeleteDatabase, useRotatePassword, type DatabaseCredentials, type ServerDatabase } from '@/features/databases/api';
import { addressOf, anySource, DATABASE_NAME, jdbcUrl, mysqlUri, REMOTE } from '@/features/databases/connection-strings';
import { serverQuery } from '@/features/server/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

/** The database limit that allows none (0 is no limit). */
const NO_DATABASES = -1;

/** A label, a value in monospace that may wrap anywhere, and a button that copies it. */
const Field = ({ label, value, copyLabel, testId }: { label: string; value: string; copyLabel: string; testId?: string }) => (
  <Stack gap={2}>
    <Text size="sm" fw={500}>
      {label}
    </Text>
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Code data-testid={testId} fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal', flex: 1 }}>
        {value}
      </Code>
      <CopyButton value={value} label={copyLabel} />
    </Group>
  </Stack>
);

/** The password, shown this once, with everything else a client needs and two ready connection strings. */
const CredentialsDialog = ({ credentials, rotated, onClose }: { credentials: DatabaseCredentials; rotated: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={rotated ? t('databases.rotatedTitle', { name: credentials.name }) : t('databases.createdTitle', { name: credentials.name })} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg" centered>
      <Stack gap="sm">
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} styles={{ message: { color: 'var(--mantine-color-text)' } }}>
          {t('databases.onceText')}
        </Alert>
        <Field label={t('databases.password')} value={credentials.password} copyLabel={t('databases.copyPassword')} testId="database-password" />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Field label={t('databases.address')} value={addressOf(credentials)} copyLabel={t('databases.copyAddress')} />
          <Field label={t('databases.name')} value={credentials.name} copyLabel={t('databases.copyName')} />
          <Field label={t('databases.username')} value={credentials.username} copyLabel={t('databases.copyUsername')} />
        </SimpleGrid>
        <Field label={t('databases.uri')} value={mysqlUri(credentials)} copyLabel={t('databases.copyUri')} testId="database-uri" />
        <Field label={t('databases.jdbc')} value={jdbcUrl(credentials)} copyLabel={t('databases.copyJdbc')} testId="database-jdbc" />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('databases.saved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
};

const CreateDialog = ({ serverId, onClose, onCreated }: { serverId: string; onClose: () => void; onCreated: (c: DatabaseCredentials) => void }) => {
  const { t } = useTranslation();
  const create = useCreateDatabase(serverId);
  const [name, setName] = useState('');
  const [remote, setRemote] = useState('%');
  const [touched, setTouched] = useState(false);
  const fields = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const nameError = touched && !DATABASE_NAME.test(name) ? t('databases.nameInvalid') : fields.name;
  const remoteError = touched && !REMOTE.test(remote) ? t('databases.remoteInvalid') : fields.remote;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!DATABASE_NAME.test(name) || !REMOTE.test(remote)) {
      return;
    }
    create.mutate({ name, remote }, { onSuccess: onCreated });
  };
  return (
    <Modal opened onClose={() => (create.isPending ? undefined : onClose())} title={t('databases.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('databases.newName')} description={t('databases.newNameHelp')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={48} error={nameError} autoComplete="off" required data-autofocus />
          <TextInput label={t('databases.remote')} description={t('databases.remoteHelp')} value={remote} onChange={(e) => setRemote(e.currentTarget.value)} maxLength={60} error={remoteError} autoComplete="off" required />
          <FormError error={Object.keys(fields).length > 0 ? null : create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('databases.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** Deleting takes the database's name typed out: its data goes with it. */
const DeleteDialog = ({ serverId, database, onClose }: { serverId: string; database: ServerDatabase; onClose: () => void }) => {
  const { t } = useTranslation();
  const remove = useDeleteDatabase(serverId);
  const [typed, setTyped] = useState('');
  return (
    <Modal opened onClose={() => (remove.isPending ? undefined : onClose())} title={t('databases.deleteTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          remove.mutate(database.id, {
            onSuccess: () => {
              notify({ color: 'green', message: t('databases.deleted', { name: database.name }) });
              onClose();
            },
          });
        }}
      >
        <Stack>
          <Text size="sm">{t('databases.deleteText', { name: database.name })}</Text>
          <TextInput label={t('databases.typeName', { name: database.name })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
          <FormError error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={remove.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={typed !== database.name} loading={remove.isPending}>
              {t('databases.delete')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0} style={{ minWidth: 0 }}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    {children}
  </Stack>
);

/** /server/$id/databases: usage against the limit, the databases with their addresses, and create, rotate and delete. */
export const DatabasesPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const reasonId = useId();
  const server = useQuery(serverQuery(serverId));
  const list = useQuery(databasesQuery(serverId));
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ credentials: DatabaseCredentials; rotated: boolean } | null>(null);
  const [deleting, setDeleting] = useState<ServerDatabase | null>(null);
  const rotate = useConfirmedAction({
    mutation: useRotatePassword(serverId),
    variables: (db: ServerDatabase) => db.id,
    title: t('databases.rotateTitle'),
    message: (db) => t('databases.rotateText', { name: db.name }),
    confirmLabel: t('databases.rotate'),
    onSuccess: (_db, credentials) => setShown({ credentials, rotated: true }),
    keepOpenOnError: true,
  });

  return (
    <QueryListBody query={list}>
      {(databases) => (
        <QueryListBody query={server}>
          {(srv) => {
            const granted = new Set(srv.permissions);
            const count = databases.meta.pagination.total;
            const limit = srv.featureLimits.databases;
            // -1: an administrator (or a billing system, with Pterodactyl's 0) allowed no databases at all.
            const none = limit === NO_DATABASES;
            const full = none || (limit > 0 && count >= limit);
            const noHost = !databases.hostAvailable;
            const reason = none ? t('databases.none') : full ? t('databases.full', { count: limit }) : noHost ? t('databases.noHost') : null;
            const createButton = granted.has('server.database.create') ? (
              <Button leftSection={<IconDatabase size={16} aria-hidden />} onClick={() => setCreating(true)} disabled={reason !== null} aria-describedby={reason ? reasonId : undefined}>
                {t('databases.create')}
              </Button>
            ) : null;
            const canRotate = granted.has('server.database.update');
            const canDelete = granted.has('server.database.delete');

            return (
              <Stack gap="md">
                <Group justify="space-between" wrap="wrap">
                  <Title order={2} size="h3">
                    {t('databases.title')}
                  </Title>
                  {createButton}
                </Group>
                <Text size="sm">{none ? t('databases.usageNone', { count }) : limit === 0 ? t('databases.usageUnlimited', { count }) : t('databases.usage', { count, limit })}</Text>
                {reason ? (
                  <Alert color={full ? 'blue' : 'yellow'} variant="light" title={none ? t('databases.noneTitle') : full ? t('databases.fullTitle') : t('databases.noHostTitle')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
                    <Text size="sm" id={reasonId}>
                      {reason}
                    </Text>
                  </Alert>
                ) : null}
                {databases.data.length === 0 ? (
                  <EmptyState icon={<IconDatabase size={28} />} title={t('databases.emptyTitle')} description={t('databases.emptyText')} />
                ) : (
                  <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {databases.data.map((d) => (
                      <Card key={d.id} withBorder component="li" padding="sm" aria-label={d.name} data-status={d.status}>
                        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                          <Stack gap="xs" style={{ minWidth: 0, flex: 1 }}>
                            <Group gap="xs">
                              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                                {d.name}
                              </Text>
                              {d.status === 'revoking' ? <Badge color="red.9">{t('databases.revoking')}</Badge> : null}
                            </Group>
                            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                              <Detail label={t('databases.address')}>
                                <Group gap={2} wrap="nowrap">
                                  <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{addressOf({ host: d.host.hostname, port: d.host.port })}</Code>
                                  <CopyButton value={addressOf({ host: d.host.hostname, port: d.host.port })} label={t('databases.copyAddressOf', { name: d.name })} />
                                </Group>
                              </Detail>
                              <Detail label={t('databases.username')}>
                                <Group gap={2} wrap="nowrap">
                                  <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{d.username}</Code>
                                  <CopyButton value={d.username} label={t('databases.copyUsernameOf', { name: d.name })} />
                                </Group>
                              </Detail>
                              <Detail label={t('databases.remote')}>
                                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                                  {anySource(d.remote) ? t('databases.anywhere') : d.remote}
                                </Text>
                              </Detail>
                            </SimpleGrid>
                          </Stack>
                          {(canRotate || canDelete) && d.status === 'ready' ? (
                            <Menu position="bottom-end" withinPortal>
                              <Menu.Target>
                                <Button variant="default" size="xs" style={{ flexShrink: 0 }} rightSection={<IconDotsVertical size={14} aria-hidden />} aria-label={t('databases.actionsOf', { name: d.name })}>
                                  {t('databases.actions')}
                                </Button>
                              </Menu.Target>
                              <Menu.Dropdown>
                                {canRotate ? <Menu.Item onClick={() => rotate.ask(d)}>{t('databases.rotate')}</Menu.Item> : null}
                                {canDelete ? (
                                  <Menu.Item color="red" onClick={() => setDeleting(d)}>
                                    {t('databases.delete')}
                                  </Menu.Item>
                                ) : null}
                              </Menu.Dropdown>
                            </Menu>
                          ) : null}
                        </Group>
                      </Card>
                    ))}
                  </Stack>
                )}
                {creating ? (
                  <CreateDialog
                    serverId={serverId}
                    onClose={() => setCreating(false)}
                    onCreated={(credentials) => {
                      setCreating(false);
                      setShown({ credentials, rotated: false });
                    }}
                  />
                ) : null}
                {shown ? <CredentialsDialog credentials={shown.credentials} rotated={shown.rotated} onClose={() => setShown(null)} /> : null}
                {deleting ? <DeleteDialog serverId={serverId} database={deleting} onClose={() => setDeleting(null)} /> : null}
                {rotate.dialog}
              </Stack>
            );
          }}
        </QueryListBody>
      )}
    </QueryListBody>
  );
};
