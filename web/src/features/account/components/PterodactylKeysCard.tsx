import { ActionIcon, Anchor, Button, Card, Code, Group, Modal, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { ListSkeleton } from '@/components/Skeletons';
import { pterodactylKeysQuery, useCreatePterodactylKey, useDeletePterodactylKey, type CreatedPterodactylKey, type PterodactylKey } from '@/features/account/api';
import { AllowedIpsInput, allowedIpsProblem } from '@/components/AllowedIpsInput';
import { parseAllowedIps } from '@/lib/allowed-ips';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';
import { notifyError } from '@/lib/notify';

/** What a Pterodactyl client library is given as its panel URL. */
const libraryUrl = (): string => `${window.location.origin}/pterodactyl`;

const CreateDialog = ({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (key: CreatedPterodactylKey) => void }) => {
  const { t } = useTranslation();
  const create = useCreatePterodactylKey();
  const [description, setDescription] = useState('');
  const [ipsText, setIpsText] = useState('');
  const ips = parseAllowedIps(ipsText);
  const ipsProblem = allowedIpsProblem(ipsText, t);
  const fields = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const valid = description.trim() !== '' && ipsProblem === undefined;
  const close = () => {
    if (create.isPending) {
      return;
    }
    setDescription('');
    setIpsText('');
    create.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      return;
    }
    create.mutate(
      { description: description.trim(), allowedIps: ips.ips },
      {
        onSuccess: (key) => {
          setDescription('');
          setIpsText('');
          create.reset();
          onCreated(key);
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title={t('account.pterodactylKeys.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('account.pterodactylKeys.description')}
            description={t('account.pterodactylKeys.descriptionHelp')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={500}
            error={fields.description}
            required
            data-autofocus
          />
          <AllowedIpsInput value={ipsText} onChange={setIpsText} error={ipsProblem ?? fields.allowedIps} />
          <FormError error={Object.keys(fields).length > 0 ? null : create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!valid}>
              {t('account.pterodactylKeys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const KeyItem = ({ pteroKey, onDelete }: { pteroKey: PterodactylKey; onDelete: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {pteroKey.description}
            </Text>
            <Code>{pteroKey.identifier}</Code>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {pteroKey.allowedIps.length > 0 ? t('account.pterodactylKeys.onlyFrom', { ips: pteroKey.allowedIps.join(', ') }) : t('account.pterodactylKeys.anyAddress')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('account.pterodactylKeys.createdAt', { date: formatDateTime(pteroKey.createdAt, i18n.language) })}
            {' · '}
            {pteroKey.lastUsedAt ? t('account.pterodactylKeys.lastUsedAt', { date: formatDateTime(pteroKey.lastUsedAt, i18n.language) }) : t('account.pterodactylKeys.neverUsed')}
          </Text>
        </Stack>
        <Tooltip label={t('account.pterodactylKeys.delete')} withArrow>
          <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('account.pterodactylKeys.deleteNamed', { name: pteroKey.description })}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
};

/** `/account/api-keys`, second section: client keys (`ptlc_…`) for tools written for Pterodactyl's client API. */
export const PterodactylKeysCard = ({ admin }: { admin: boolean }) => {
  const { t } = useTranslation();
  const keys = useQuery(pterodactylKeysQuery);
  const remove = useDeletePterodactylKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedPterodactylKey | null>(null);
  const [deleting, setDeleting] = useState<PterodactylKey | null>(null);

  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      {t('account.pterodactylKeys.create')}
    </Button>
  );

  const list = (() => {
    if (keys.isError) {
      return <ErrorState error={keys.error} title={t('account.pterodactylKeys.loadError')} onRetry={() => void keys.refetch()} />;
    }
    if (!keys.data) {
      return <ListSkeleton rows={2} />;
    }
    if (keys.data.length === 0) {
      return <EmptyState icon={<IconPlugConnected />} title={t('account.pterodactylKeys.emptyTitle')} description={t('account.pterodactylKeys.emptyText')} action={createButton} />;
    }
    return (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.pterodactylKeys.title')}>
        {keys.data.map((key) => (
          <KeyItem key={key.identifier} pteroKey={key} onDelete={() => setDeleting(key)} />
        ))}
      </Stack>
    );
  })();

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-pterodactyl-keys">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
        <Stack gap={0} style={{ flex: '1 1 240px' }}>
          <Title order={2} size="h4" id="account-pterodactyl-keys">
            {t('account.pterodactylKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('account.pterodactylKeys.text')}
          </Text>
          <Text size="sm" c="dimmed" mt={4}>
            {t('account.pterodactylKeys.billing')}
            {admin ? (
              <>
                {' '}
                <Anchor inherit underline="always" renderRoot={(props) => <Link {...props} to="/admin/application-keys" />}>
                  {t('account.pterodactylKeys.billingLink')}
                </Anchor>
              </>
            ) : null}
          </Text>
        </Stack>
        {keys.data && keys.data.length > 0 ? createButton : null}
      </Group>
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('account.pterodactylKeys.panelUrl')}
          </Text>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Code data-testid="pterodactyl-panel-url" fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {libraryUrl()}
            </Code>
            <CopyButton value={libraryUrl()} label={t('account.pterodactylKeys.copyPanelUrl')} />
          </Group>
          <Text size="xs" c="dimmed">
            {t('account.pterodactylKeys.panelUrlHelp')}
          </Text>
        </Stack>
        {created ? (
          <ShownOnceSecret
            title={t('account.pterodactylKeys.createdTitle', { name: created.description })}
            text={t('account.pterodactylKeys.createdText')}
            value={created.key}
            copyLabel={t('account.pterodactylKeys.copyKey')}
            testId="new-pterodactyl-key"
            dismissLabel={t('account.pterodactylKeys.dismiss')}
            onDismiss={() => setCreated(null)}
          >
            <Text size="xs" c="dimmed">
              {t('account.pterodactylKeys.usage', { url: libraryUrl() })}
            </Text>
          </ShownOnceSecret>
        ) : null}
        {list}
      </Stack>
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
        title={t('account.pterodactylKeys.deleteTitle')}
        message={t('account.pterodactylKeys.deleteText', { name: deleting?.description ?? '' })}
        confirmLabel={t('account.pterodactylKeys.delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            remove.mutate(deleting.identifier, {
              onSuccess: () => {
                setDeleting(null);
                // A deleted key's secret is no longer worth showing.
                setCreated((shown) => (shown?.identifier === deleting.identifier ? null : shown));
              },
              onError: (error) => {
                setDeleting(null);
                notifyError(error);
              },
            });
          }
        }}
      />
    </Card>
  );
};
