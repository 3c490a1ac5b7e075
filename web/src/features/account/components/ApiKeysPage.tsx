import { ActionIcon, Badge, Card, Checkbox, Code, Group, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyManager, type KeyFieldsProps, type KeyKind } from '@/components/KeyManager';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { PterodactylKeysCard } from '@/features/account/components/PterodactylKeysCard';
import { apiKeysQuery, useCreateApiKey, useDeleteApiKey, type AdminScope, type ApiKey, type CreatedApiKey } from '@/features/account/api';
import { formatDateTime } from '@/lib/format';

const MAX_DAYS = 90;

type CreateApiKeyBody = Parameters<ReturnType<typeof useCreateApiKey>['mutate']>[0];

interface ApiKeyForm {
  name: string;
  days: number | string;
  scopes: AdminScope[];
}

const daysValid = (days: number | string): days is number => typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_DAYS;

/** A name, how many days the key lasts, and for administrators the admin scopes it carries (those they hold). */
const apiKeyFields = (adminScopes: readonly AdminScope[]) =>
  function ApiKeyFields({ form, onChange, errors }: KeyFieldsProps<ApiKeyForm>) {
    const { t } = useTranslation();
    return (
      <>
        <TextInput label={t('account.apiKeys.name')} description={t('account.apiKeys.nameHelp')} value={form.name} onChange={(e) => onChange({ ...form, name: e.currentTarget.value })} maxLength={100} error={errors.name} required data-autofocus />
        <NumberInput
          label={t('account.apiKeys.days')}
          description={t('account.apiKeys.daysHelp', { max: MAX_DAYS })}
          value={form.days}
          onChange={(days) => onChange({ ...form, days })}
          min={1}
          max={MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          error={(daysValid(form.days) ? undefined : t('account.apiKeys.daysInvalid', { max: MAX_DAYS })) ?? errors.expiresInDays}
          required
        />
        {adminScopes.length > 0 ? (
          <Checkbox.Group label={t('account.apiKeys.scopes')} description={t('account.apiKeys.scopesHelp')} value={form.scopes} onChange={(value) => onChange({ ...form, scopes: value })}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {adminScopes.map((scope) => (
                <Checkbox key={scope} value={scope} label={scope} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        ) : null}
      </>
    );
  };

/** The new key, shown this once with a copy button. */
const NewKey = ({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) => {
  const { t } = useTranslation();
  return (
    <ShownOnceSecret
      title={t('account.apiKeys.createdTitle', { name: created.name })}
      text={t('account.apiKeys.createdText')}
      value={created.key}
      copyLabel={t('account.apiKeys.copyKey')}
      testId="new-api-key"
      dismissLabel={t('account.apiKeys.dismiss')}
      onDismiss={onDismiss}
    >
      <Text size="xs" c="dimmed">
        {t('account.apiKeys.usage')}
      </Text>
    </ShownOnceSecret>
  );
};

const Scopes = ({ scopes }: { scopes: string[] }) => {
  const { t } = useTranslation();
  return scopes.length === 0 ? (
    <Text size="sm" c="dimmed">
      {t('account.apiKeys.noScopes')}
    </Text>
  ) : (
    <Group gap={4}>
      {scopes.map((scope) => (
        <Badge key={scope} variant="default" size="sm" tt="none">
          {scope}
        </Badge>
      ))}
    </Group>
  );
};

const KeyItem = ({ apiKey, onDelete }: { apiKey: ApiKey; onDelete: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {apiKey.name}
            </Text>
            <Code>{apiKey.start}…</Code>
          </Group>
          <Scopes scopes={apiKey.permissions} />
          <Text size="sm" c="dimmed">
            {t('account.apiKeys.expiresAt', { date: formatDateTime(apiKey.expiresAt, i18n.language) })}
            {' · '}
            {apiKey.lastUsedAt ? t('account.apiKeys.lastUsedAt', { date: formatDateTime(apiKey.lastUsedAt, i18n.language) }) : t('account.apiKeys.neverUsed')}
          </Text>
        </Stack>
        <Tooltip label={t('account.apiKeys.delete')} withArrow>
          <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('account.apiKeys.deleteNamed', { name: apiKey.name })}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
};

/** `/account/api-keys`: the user's keys; create (the key shown once) and delete. */
export const ApiKeysPage = ({ adminScopes }: { adminScopes: readonly AdminScope[] }) => {
  const admin = adminScopes.length > 0;
  const { t } = useTranslation();
  const Fields = useMemo(() => apiKeyFields(adminScopes), [adminScopes]);
  const kind: KeyKind<ApiKey, CreatedApiKey, ApiKeyForm, CreateApiKeyBody> = {
    keys: useQuery(apiKeysQuery),
    create: useCreateApiKey(),
    revoke: useDeleteApiKey(),
    identify: (key) => key.identifier,
    name: (key) => key.name,
    texts: {
      title: t('account.apiKeys.title'),
      loadError: t('account.apiKeys.loadError'),
      emptyTitle: t('account.apiKeys.emptyTitle'),
      emptyText: t('account.apiKeys.emptyText'),
      create: t('account.apiKeys.create'),
      createTitle: t('account.apiKeys.createTitle'),
      deleteTitle: t('account.apiKeys.deleteTitle'),
      deleteText: (name) => t('account.apiKeys.deleteText', { name }),
      delete: t('account.apiKeys.delete'),
    },
    emptyIcon: <IconKey />,
    initialForm: () => ({ name: '', days: MAX_DAYS, scopes: [] }),
    toBody: ({ name, days, scopes }) => (name.trim() && daysValid(days) ? { name: name.trim(), expiresInDays: days, permissions: admin ? scopes : [] } : null),
    Fields,
    renderItem: (key, onRevoke) => <KeyItem apiKey={key} onDelete={onRevoke} />,
    renderCreated: (created, onDismiss) => <NewKey created={created} onDismiss={onDismiss} />,
  };

  return (
    <Stack gap="md">
      <Card withBorder padding="lg" component="section" aria-labelledby="account-api-keys">
        <KeyManager
          kind={kind}
          heading={
            <Stack gap={0} style={{ flex: '1 1 240px' }}>
              <Title order={2} size="h4" id="account-api-keys">
                {t('account.apiKeys.title')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('account.apiKeys.text')}
              </Text>
            </Stack>
          }
        />
      </Card>
      <PterodactylKeysCard admin={admin} />
    </Stack>
  );
};
