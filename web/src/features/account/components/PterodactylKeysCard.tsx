import { ActionIcon, Anchor, Card, Code, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { DescribedKeyFields, describedKeyBody, emptyDescribedKey, type DescribedKeyForm } from '@/components/DescribedKeyFields';
import { KeyManager, type KeyFieldsProps, type KeyKind } from '@/components/KeyManager';
import { ShownOnceSecret } from '@/components/ShownOnceSecret';
import { pterodactylKeysQuery, useCreatePterodactylKey, useDeletePterodactylKey, type CreatedPterodactylKey, type PterodactylKey } from '@/features/account/api';
import { formatDateTime } from '@/lib/format';

/** What a Pterodactyl client library is given as its panel URL. */
const libraryUrl = (): string => `${window.location.origin}/pterodactyl`;

const PterodactylKeyFields = (props: KeyFieldsProps<DescribedKeyForm>) => {
  const { t } = useTranslation();
  return <DescribedKeyFields {...props} label={t('account.pterodactylKeys.description')} help={t('account.pterodactylKeys.descriptionHelp')} />;
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
  const kind: KeyKind<PterodactylKey, CreatedPterodactylKey, DescribedKeyForm, { description: string; allowedIps: string[] }> = {
    keys: useQuery(pterodactylKeysQuery),
    create: useCreatePterodactylKey(),
    revoke: useDeletePterodactylKey(),
    identify: (key) => key.identifier,
    name: (key) => key.description,
    texts: {
      title: t('account.pterodactylKeys.title'),
      loadError: t('account.pterodactylKeys.loadError'),
      emptyTitle: t('account.pterodactylKeys.emptyTitle'),
      emptyText: t('account.pterodactylKeys.emptyText'),
      create: t('account.pterodactylKeys.create'),
      createTitle: t('account.pterodactylKeys.createTitle'),
      deleteTitle: t('account.pterodactylKeys.deleteTitle'),
      deleteText: (name) => t('account.pterodactylKeys.deleteText', { name }),
      delete: t('account.pterodactylKeys.delete'),
    },
    emptyIcon: <IconPlugConnected />,
    initialForm: emptyDescribedKey,
    toBody: (form) => describedKeyBody(form, t),
    Fields: PterodactylKeyFields,
    renderItem: (key, onRevoke) => <KeyItem pteroKey={key} onDelete={onRevoke} />,
    renderCreated: (created, onDismiss) => (
      <ShownOnceSecret
        title={t('account.pterodactylKeys.createdTitle', { name: created.description })}
        text={t('account.pterodactylKeys.createdText')}
        value={created.key}
        copyLabel={t('account.pterodactylKeys.copyKey')}
        testId="new-pterodactyl-key"
        dismissLabel={t('account.pterodactylKeys.dismiss')}
        onDismiss={onDismiss}
      >
        <Text size="xs" c="dimmed">
          {t('account.pterodactylKeys.usage', { url: libraryUrl() })}
        </Text>
      </ShownOnceSecret>
    ),
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-pterodactyl-keys">
      <KeyManager
        kind={kind}
        heading={
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
        }
      >
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
      </KeyManager>
    </Card>
  );
};
