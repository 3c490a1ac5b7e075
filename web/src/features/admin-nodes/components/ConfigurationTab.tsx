import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconKey, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { FormError } from '@/components/FormError';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type AdminNode, useCreateDeployKey, useDownloadConfiguration, useResetToken } from '@/features/admin-nodes/api';
import { notify } from '@/lib/notify';

/** The one line an operator runs on the node: it fetches config.yml with a key that can only read node configurations. */
const deployCommand = (key: string, nodeId: string): string => `curl -fsSL -H "Authorization: Bearer ${key}" "${window.location.origin}/api/admin/daemon/nodes/${nodeId}/configuration?format=yaml" -o /etc/pterodactyl/config.yml`;

/** Saves text as a file through the browser's download. */
const saveFile = (text: string, name: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/yaml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

/** The node's Wings configuration: download it, or a one-line command with a one-day key; and new daemon credentials. */
export const ConfigurationTab = ({ node }: { node: AdminNode }) => {
  const { t } = useTranslation();
  const download = useDownloadConfiguration(node);
  const deploy = useCreateDeployKey(node);
  const reset = useResetToken(node.id);
  const [command, setCommand] = useState<string | null>(null);
  const resetToken = useConfirmedAction({
    mutation: reset,
    variables: () => undefined,
    title: t('adminNodes.config.resetTitle'),
    message: () => t('adminNodes.config.resetConfirm'),
    confirmLabel: t('adminNodes.config.resetToken'),
    danger: true,
    onSuccess: () => {
      setCommand(null);
      notify({ color: 'green', message: t('adminNodes.config.resetDone') });
    },
    notifyOnError: false,
  });

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminNodes.config.fileTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminNodes.config.fileText')}
          </Text>
          <Group>
            <Button leftSection={<IconDownload size={16} aria-hidden />} loading={download.isPending} onClick={() => download.mutate(undefined, { onSuccess: (yaml) => saveFile(yaml, 'config.yml') })}>
              {t('adminNodes.config.download')}
            </Button>
          </Group>
          {download.error ? <FormError error={download.error} /> : null}
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminNodes.config.deployTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminNodes.config.deployText')}
          </Text>
          <Group>
            <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} loading={deploy.isPending} onClick={() => deploy.mutate(undefined, { onSuccess: (key) => setCommand(deployCommand(key, node.id)) })}>
              {t('adminNodes.config.createDeploy')}
            </Button>
          </Group>
          {deploy.error ? <FormError error={deploy.error} /> : null}
          {command ? (
            <Alert color="yellow" variant="light" title={t('adminNodes.config.onceTitle')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              <Stack gap="xs">
                <Text size="sm">{t('adminNodes.config.onceText')}</Text>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Code block style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="deploy-command">
                    {command}
                  </Code>
                  <CopyButton value={command} label={t('adminNodes.config.copyCommand')} />
                </Group>
              </Stack>
            </Alert>
          ) : null}
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminNodes.config.tokenTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminNodes.config.tokenText', { identifier: node.tokenIdentifier })}
          </Text>
          <Group>
            <Button color="red" variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => resetToken.ask(node)}>
              {t('adminNodes.config.resetToken')}
            </Button>
          </Group>
          {reset.error ? <FormError error={reset.error} /> : null}
        </Stack>
      </Paper>
      {resetToken.dialog}
    </Stack>
  );
};
