import { ActionIcon, Badge, Button, Card, Checkbox, Code, Group, Modal, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconKey, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { ListSkeleton } from '@/components/Skeletons';
import { PterodactylKeysCard } from '@/features/account/components/PterodactylKeysCard';
import { ADMIN_SCOPES, apiKeysQuery, useCreateApiKey, useDeleteApiKey, type AdminScope, type ApiKey, type CreatedApiKey } from '@/features/account/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';
import { notifyError } from '@/lib/notify';

const MAX_DAYS = 90;

const CreateKeyDialog = ({ opened, admin, onClose, onCreated }: { opened: boolean; admin: boolean; onClose: () => void; onCreated: (key: CreatedApiKey) => void }) => {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [days, setDays] = useState<number | string>(MAX_DAYS);
  const [scopes, setScopes] = useState<AdminScope[]>([]);
  const fields = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const daysValid = typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_DAYS;
  const reset = () => {
    setName('');
    setDays(MAX_DAYS);
    setScopes([]);
    create.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !daysValid) {
      return;
    }
    create.mutate(
      { name: name.trim(), expiresInDays: days, permissions: admin ? scopes : [] },
      {
        onSuccess: (key) => {
          reset();
          onCreated(key);
        },
      },
    );
  };
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!create.isPending) {
          reset();
          onClose();
        }
      }}
      title={t('account.apiKeys.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('account.apiKeys.name')}
            description={t('account.apiKeys.nameHelp')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            error={fields.name}
            required
            data-autofocus
          />
          <NumberInput
            label={t('account.apiKeys.days')}
            description={t('account.apiKeys.daysHelp', { max: MAX_DAYS })}
            value={days}
            onChange={setDays}
            min={1}
            max={MAX_DAYS}
            allowDecimal={false}
            allowNegative={false}
            error={(daysValid ? undefined : t('account.apiKeys.daysInvalid', { max: MAX_DAYS })) ?? fields.expiresInDays}
            required
          />
          {admin ? (
            <Checkbox.Group label={t('account.apiKeys.scopes')} description={t('account.apiKeys.scopesHelp')} value={scopes} onChange={(value) => setScopes(value)}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
                {ADMIN_SCOPES.map((scope) => (
                  <Checkbox key={scope} value={scope} label={scope} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          ) : null}
          <FormError error={Object.keys(fields).length > 0 ? null : create.error} />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                reset();
                onClose();
              }}
              disabled={create.isPending}
            >
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim() || !daysValid}>
              {t('account.apiKeys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
export const ApiKeysPage = ({ admin }: { admin: boolean }) => {
  const { t } = useTranslation();
  const keys = useQuery(apiKeysQuery);
  const remove = useDeleteApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      {t('account.apiKeys.create')}
    </Button>
  );

  const list = (() => {
    if (keys.isError) {
      return <ErrorState error={keys.error} title={t('account.apiKeys.loadError')} onRetry={() => void keys.refetch()} />;
    }
    if (!keys.data) {
      return <ListSkeleton rows={3} />;
    }
    if (keys.data.length === 0) {
      return <EmptyState icon={<IconKey />} title={t('account.apiKeys.emptyTitle')} description={t('account.apiKeys.emptyText')} action={createButton} />;
    }
    return (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.apiKeys.title')}>
        {keys.data.map((key) => (
          <KeyItem key={key.identifier} apiKey={key} onDelete={() => setDeleting(key)} />
        ))}
      </Stack>
    );
  })();

  return (
    <Stack gap="md">
      <Card withBorder padding="lg" component="section" aria-labelledby="account-api-keys">
        <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
          <Stack gap={0} style={{ flex: '1 1 240px' }}>
            <Title order={2} size="h4" id="account-api-keys">
              {t('account.apiKeys.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('account.apiKeys.text')}
            </Text>
          </Stack>
          {keys.data && keys.data.length > 0 ? createButton : null}
        </Group>
        <Stack gap="md">
          {created ? <NewKey created={created} onDismiss={() => setCreated(null)} /> : null}
          {list}
        </Stack>
      </Card>
      <PterodactylKeysCard admin={admin} />
      <CreateKeyDialog
        opened={creating}
        admin={admin}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('account.apiKeys.deleteTitle')}
        message={t('account.apiKeys.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('account.apiKeys.delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            remove.mutate(deleting.identifier, { onSuccess: () => setDeleting(null), onError: (error) => { setDeleting(null); notifyError(error); } });
          }
        }}
      />
    </Stack>
  );
};
