import { ActionIcon, Badge, Button, Card, Code, Group, Input, Modal, Radio, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { ListSkeleton } from '@/components/Skeletons';
import { applicationKeysQuery, useCreateApplicationKey, useDeleteApplicationKey, type ApplicationKey, type CreatedApplicationKey } from '@/features/admin-application-keys/api';
import { emptyGrid, grantedOf, LEVELS, RESOURCES, type Level, type PermissionGrid } from '@/features/admin-application-keys/permissions';
import { AllowedIpsInput, allowedIpsProblem } from '@/components/AllowedIpsInput';
import { parseAllowedIps } from '@/lib/allowed-ips';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';
import { notify, notifyError } from '@/lib/notify';

const LEVEL_LABEL = { 0: 'none', 1: 'read', 3: 'readWrite' } as const satisfies Record<Level, string>;

/** None / Read / Read & write for each of the nine resources, as a table of radio buttons. */
const PermissionTable = ({ grid, onChange }: { grid: PermissionGrid; onChange: (grid: PermissionGrid) => void }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0}>
          <Input.Label id="application-key-permissions">{t('adminApplicationKeys.permissions')}</Input.Label>
          <Input.Description>{t('adminApplicationKeys.permissionsHelp')}</Input.Description>
        </Stack>
        <Group gap={4} wrap="wrap">
          {LEVELS.map((level) => (
            <Button
              key={level}
              size="compact-xs"
              variant="default"
              onClick={() => onChange(Object.fromEntries(RESOURCES.map((r) => [r, level])) as PermissionGrid)}
            >
              {t(`adminApplicationKeys.setAll.${LEVEL_LABEL[level]}`)}
            </Button>
          ))}
        </Group>
      </Group>
      <Table aria-labelledby="application-key-permissions" verticalSpacing={4} horizontalSpacing="xs" withRowBorders>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminApplicationKeys.resource')}</Table.Th>
            {LEVELS.map((level) => (
              <Table.Th key={level} ta="center">
                {t(`adminApplicationKeys.level.${LEVEL_LABEL[level]}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RESOURCES.map((resource) => (
            <Table.Tr key={resource}>
              <Table.Th scope="row" fw={400}>
                <Text size="sm">{t(`adminApplicationKeys.resources.${resource}`)}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  r_{resource}
                </Text>
              </Table.Th>
              {LEVELS.map((level) => (
                <Table.Td key={level}>
                  <Radio
                    name={`permission-${resource}`}
                    value={String(level)}
                    checked={grid[resource] === level}
                    onChange={() => onChange({ ...grid, [resource]: level })}
                    aria-label={t('adminApplicationKeys.levelOf', {
                      resource: t(`adminApplicationKeys.resources.${resource}`),
                      level: t(`adminApplicationKeys.level.${LEVEL_LABEL[level]}`),
                    })}
                    styles={{ body: { justifyContent: 'center' } }}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
};

const CreateDialog = ({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (key: CreatedApplicationKey) => void }) => {
  const { t } = useTranslation();
  const create = useCreateApplicationKey();
  const [description, setDescription] = useState('');
  const [ipsText, setIpsText] = useState('');
  const [grid, setGrid] = useState<PermissionGrid>(emptyGrid);
  const ips = parseAllowedIps(ipsText);
  const ipsProblem = allowedIpsProblem(ipsText, t);
  const fields = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const valid = description.trim() !== '' && ipsProblem === undefined;
  const reset = () => {
    setDescription('');
    setIpsText('');
    setGrid(emptyGrid());
    create.reset();
  };
  const close = () => {
    if (!create.isPending) {
      reset();
      onClose();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      return;
    }
    create.mutate(
      { description: description.trim(), allowedIps: ips.ips, permissions: grid },
      {
        onSuccess: (key) => {
          reset();
          onCreated(key);
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title={t('adminApplicationKeys.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('adminApplicationKeys.description')}
            description={t('adminApplicationKeys.descriptionHelp')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={500}
            error={fields.description}
            required
            data-autofocus
          />
          <AllowedIpsInput value={ipsText} onChange={setIpsText} error={ipsProblem ?? fields.allowedIps} />
          <PermissionTable grid={grid} onChange={setGrid} />
          <FormError error={Object.keys(fields).length > 0 ? null : create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!valid}>
              {t('adminApplicationKeys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** An address to give a tool, with a copy button. */
const BaseUrl = ({ label, help, url, copyLabel }: { label: string; help: string; url: string; copyLabel: string }) => (
  <Stack gap={2}>
    <Text size="sm" fw={500}>
      {label}
    </Text>
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {url}
      </Code>
      <CopyButton value={url} label={copyLabel} />
    </Group>
    <Text size="xs" c="dimmed">
      {help}
    </Text>
  </Stack>
);

const NewKey = ({ created, onDismiss }: { created: CreatedApplicationKey; onDismiss: () => void }) => {
  const { t } = useTranslation();
  const origin = window.location.origin;
  return (
    <ShownOnceSecret
      title={t('adminApplicationKeys.createdTitle', { name: created.description })}
      text={t('adminApplicationKeys.createdText')}
      value={created.key}
      copyLabel={t('adminApplicationKeys.copyKey')}
      testId="new-application-key"
      dismissLabel={t('adminApplicationKeys.dismiss')}
      onDismiss={onDismiss}
    >
      <BaseUrl label={t('adminApplicationKeys.hostUrl')} help={t('adminApplicationKeys.hostUrlHelp', { origin })} url={`${origin}/api/application`} copyLabel={t('adminApplicationKeys.copyHostUrl')} />
      <BaseUrl label={t('adminApplicationKeys.libraryUrl')} help={t('adminApplicationKeys.libraryUrlHelp')} url={`${origin}/pterodactyl`} copyLabel={t('adminApplicationKeys.copyLibraryUrl')} />
    </ShownOnceSecret>
  );
};

const KeyItem = ({ appKey, onDelete }: { appKey: ApplicationKey; onDelete: () => void }) => {
  const { t, i18n } = useTranslation();
  const granted = grantedOf(appKey.permissions);
  return (
    <Card withBorder padding="sm" component="li" aria-label={appKey.description}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {appKey.description}
            </Text>
            <Code>{appKey.identifier}</Code>
          </Group>
          {granted.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('adminApplicationKeys.noPermissions')}
            </Text>
          ) : (
            <Group gap={4} aria-label={t('adminApplicationKeys.permissions')} role="list">
              {granted.map(({ resource, access }) => (
                <Badge key={resource} role="listitem" variant="default" size="sm" tt="none">
                  {t('adminApplicationKeys.grant', { resource: t(`adminApplicationKeys.resources.${resource}`), access: t(`adminApplicationKeys.access.${access}`) })}
                </Badge>
              ))}
            </Group>
          )}
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {appKey.allowedIps.length > 0 ? t('adminApplicationKeys.onlyFrom', { ips: appKey.allowedIps.join(', ') }) : t('adminApplicationKeys.anyAddress')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('adminApplicationKeys.createdAt', { date: formatDateTime(appKey.createdAt, i18n.language) })}
            {' · '}
            {appKey.lastUsedAt ? t('adminApplicationKeys.lastUsedAt', { date: formatDateTime(appKey.lastUsedAt, i18n.language) }) : t('adminApplicationKeys.neverUsed')}
          </Text>
        </Stack>
        <Tooltip label={t('adminApplicationKeys.delete')} withArrow>
          <ActionIcon variant="subtle" color="red" size="lg" onClick={onDelete} aria-label={t('adminApplicationKeys.deleteNamed', { name: appKey.description })}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Card>
  );
};

/**
 * `/admin/application-keys`: the administrator's application keys (`ptla_…`) for billing modules and
 * `wings configure`, with Pterodactyl's per-resource permissions; create (the key shown once) and delete.
 */
export const ApplicationKeysPage = () => {
  const { t } = useTranslation();
  const list = useQuery(applicationKeysQuery());
  const remove = useDeleteApplicationKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApplicationKey | null>(null);
  const [deleting, setDeleting] = useState<ApplicationKey | null>(null);
  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      {t('adminApplicationKeys.create')}
    </Button>
  );

  let body;
  if (list.isError) {
    body = <ErrorState error={list.error} title={t('adminApplicationKeys.loadError')} onRetry={() => void list.refetch()} />;
  } else if (!list.data) {
    body = <ListSkeleton rows={3} />;
  } else if (list.data.length === 0) {
    body = <EmptyState icon={<IconKey />} title={t('adminApplicationKeys.emptyTitle')} description={t('adminApplicationKeys.emptyText')} action={createButton} />;
  } else {
    body = (
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminApplicationKeys.title')}>
        {list.data.map((key) => (
          <KeyItem key={key.identifier} appKey={key} onDelete={() => setDeleting(key)} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Stack gap={0} style={{ flex: '1 1 280px' }}>
          <Title order={2} size="h3">
            {t('adminApplicationKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminApplicationKeys.text')}
          </Text>
        </Stack>
        {list.data && list.data.length > 0 ? createButton : null}
      </Group>
      {created ? <NewKey created={created} onDismiss={() => setCreated(null)} /> : null}
      {body}
      <CreateDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('adminApplicationKeys.deleteTitle')}
        message={t('adminApplicationKeys.deleteText', { name: deleting?.description ?? '' })}
        confirmLabel={t('adminApplicationKeys.delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            remove.mutate(deleting.identifier, {
              onSuccess: () => {
                notify({ color: 'green', message: t('adminApplicationKeys.deleted', { name: deleting.description }) });
                setCreated((shown) => (shown?.identifier === deleting.identifier ? null : shown));
                setDeleting(null);
              },
              onError: (error) => {
                setDeleting(null);
                notifyError(error);
              },
            });
          }
        }}
      />
    </Stack>
  );
};
