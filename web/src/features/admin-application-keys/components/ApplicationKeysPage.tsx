import { ActionIcon, Badge, Button, Card, Code, Group, Input, Radio, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { DescribedKeyFields, describedKeyBody, emptyDescribedKey, type DescribedKeyForm } from '@/components/DescribedKeyFields';
import { KeyManager, type KeyFieldsProps, type KeyKind } from '@/components/KeyManager';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { applicationKeysQuery, useCreateApplicationKey, useDeleteApplicationKey, type ApplicationKey, type CreatedApplicationKey } from '@/features/admin-application-keys/api';
import { emptyGrid, grantedOf, LEVELS, RESOURCES, type Level, type PermissionGrid, type Resource } from '@/features/admin-application-keys/permissions';
import { useAdminAccess, type AdminArea } from '@/features/auth/admin-access';
import { formatDateTime } from '@/lib/format';

type CreateApplicationKeyBody = Parameters<ReturnType<typeof useCreateApplicationKey>['mutate']>[0];

const LEVEL_LABEL = { 0: 'none', 1: 'read', 3: 'readWrite' } as const satisfies Record<Level, string>;

/** The part of the administration each resource needs of the key's owner (docs/permissions.md): a key never does more than its owner. */
const AREA_OF: Record<Resource, AdminArea> = {
  servers: 'servers',
  server_databases: 'servers',
  nodes: 'nodes',
  allocations: 'nodes',
  nests: 'eggs',
  eggs: 'eggs',
  users: 'users',
  locations: 'locations',
  database_hosts: 'database_hosts',
};

/**
 * None / Read / Read & write for each of the nine resources, as a table of radio buttons. What the
 * caller's roles do not give is offered off: the key would be refused it on use.
 */
const PermissionTable = ({ grid, onChange }: { grid: PermissionGrid; onChange: (grid: PermissionGrid) => void }) => {
  const { t } = useTranslation();
  const access = useAdminAccess();
  const allowed = (resource: Resource, level: Level): boolean => level === 0 || access.can(AREA_OF[resource], level === 1 ? 'read' : 'write');
  const limited = RESOURCES.some((resource) => !allowed(resource, 3));
  /** The level asked for, or the most the roles give below it. */
  const atMost = (resource: Resource, level: Level): Level => [...LEVELS].reverse().find((l) => l <= level && allowed(resource, l)) ?? 0;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0}>
          <Input.Label id="application-key-permissions">{t('adminApplicationKeys.permissions')}</Input.Label>
          <Input.Description>{t('adminApplicationKeys.permissionsHelp')}</Input.Description>
          {limited ? <Input.Description>{t('adminApplicationKeys.rolesLimit')}</Input.Description> : null}
        </Stack>
        <Group gap={4} wrap="wrap">
          {LEVELS.map((level) => (
            <Button key={level} size="compact-xs" variant="default" onClick={() => onChange(Object.fromEntries(RESOURCES.map((r) => [r, atMost(r, level)])) as PermissionGrid)}>
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
                    disabled={!allowed(resource, level)}
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

interface ApplicationKeyForm extends DescribedKeyForm {
  grid: PermissionGrid;
}

const ApplicationKeyFields = (props: KeyFieldsProps<ApplicationKeyForm>) => {
  const { t } = useTranslation();
  const { form, onChange } = props;
  return (
    <>
      <DescribedKeyFields {...props} label={t('adminApplicationKeys.description')} help={t('adminApplicationKeys.descriptionHelp')} />
      <PermissionTable grid={form.grid} onChange={(grid) => onChange({ ...form, grid })} />
    </>
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
  const kind: KeyKind<ApplicationKey, CreatedApplicationKey, ApplicationKeyForm, CreateApplicationKeyBody> = {
    keys: useQuery(applicationKeysQuery()),
    create: useCreateApplicationKey(),
    revoke: useDeleteApplicationKey(),
    identify: (key) => key.identifier,
    name: (key) => key.description,
    texts: {
      title: t('adminApplicationKeys.title'),
      loadError: t('adminApplicationKeys.loadError'),
      emptyTitle: t('adminApplicationKeys.emptyTitle'),
      emptyText: t('adminApplicationKeys.emptyText'),
      create: t('adminApplicationKeys.create'),
      createTitle: t('adminApplicationKeys.createTitle'),
      deleteTitle: t('adminApplicationKeys.deleteTitle'),
      deleteText: (name) => t('adminApplicationKeys.deleteText', { name }),
      delete: t('adminApplicationKeys.delete'),
      deleted: (name) => t('adminApplicationKeys.deleted', { name }),
    },
    emptyIcon: <IconKey />,
    initialForm: () => ({ ...emptyDescribedKey(), grid: emptyGrid() }),
    toBody: (form) => {
      const described = describedKeyBody(form, t);
      return described && { ...described, permissions: form.grid };
    },
    Fields: ApplicationKeyFields,
    wideDialog: true,
    renderItem: (key, onRevoke) => <KeyItem appKey={key} onDelete={onRevoke} />,
    renderCreated: (created, onDismiss) => <NewKey created={created} onDismiss={onDismiss} />,
  };

  return (
    <KeyManager
      kind={kind}
      heading={
        <Stack gap={0} style={{ flex: '1 1 280px' }}>
          <Title order={2} size="h3">
            {t('adminApplicationKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminApplicationKeys.text')}
          </Text>
        </Stack>
      }
    />
  );
};
