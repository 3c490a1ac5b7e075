import { ActionIcon, Button, Card, Code, FileButton, Group, Modal, Paper, Stack, Text, Textarea, TextInput, Title, Tooltip } from '@mantine/core';
import { IconFileUpload, IconPlus, IconTerminal2, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { sshKeysQuery, useAddSshKey, useDeleteSshKey, type SshKey } from '@/features/account/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';

/** A `.pub` file is one line; more than this is not a public key. */
const MAX_FILE_BYTES = 16_384;

/** The key's comment ("me@laptop"), a good default name. */
const commentOf = (line: string): string => line.trim().split(/\s+/).slice(2).join(' ');

const AddKeyDialog = ({ opened, onClose }: { opened: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const add = useAddSshKey();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const fields = add.error instanceof ApiError ? fieldErrors(add.error) : {};
  const reset = () => {
    setName('');
    setPublicKey('');
    setFileError(null);
    add.reset();
  };
  const close = () => {
    if (!add.isPending) {
      reset();
      onClose();
    }
  };
  const readFile = (file: File | null) => {
    setFileError(null);
    if (!file) {
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setFileError(t('account.sshKeys.fileTooLarge'));
      return;
    }
    void file.text().then((text) => {
      const line = text.trim();
      setPublicKey(line);
      if (!name.trim()) {
        setName(commentOf(line) || file.name.replace(/\.pub$/, ''));
      }
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { name: name.trim(), publicKey: publicKey.trim() },
      {
        onSuccess: () => {
          reset();
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title={t('account.sshKeys.addTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label={t('account.sshKeys.publicKey')}
            description={t('account.sshKeys.publicKeyHelp')}
            placeholder="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… me@laptop"
            value={publicKey}
            onChange={(e) => {
              const line = e.currentTarget.value;
              setPublicKey(line);
              if (!name.trim() && commentOf(line)) {
                setName(commentOf(line));
              }
            }}
            autosize
            minRows={3}
            maxRows={8}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
            error={fields.publicKey ?? fileError}
            required
            data-autofocus
          />
          <Group>
            <FileButton onChange={readFile} accept=".pub,text/plain">
              {(props) => (
                <Button {...props} variant="default" size="xs" leftSection={<IconFileUpload size={14} aria-hidden />}>
                  {t('account.sshKeys.fromFile')}
                </Button>
              )}
            </FileButton>
          </Group>
          <TextInput label={t('account.sshKeys.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={191} error={fields.name} required />
          <FormError error={Object.keys(fields).length > 0 ? null : add.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending} disabled={!name.trim() || !publicKey.trim()}>
              {t('account.sshKeys.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const KeyItem = ({ sshKey, onDelete }: { sshKey: SshKey; onDelete: () => void }) => {
  const { t, i18n } = useTranslation();
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {sshKey.name}
          </Text>
          <Code style={{ overflowWrap: 'anywhere' }}>{sshKey.fingerprint}</Code>
          <Text size="sm" c="dimmed">
            {t('account.sshKeys.added', { date: formatDateTime(sshKey.createdAt, i18n.language) })}
          </Text>
        </Stack>
        <Tooltip label={t('account.sshKeys.delete')} withArrow>
          <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('account.sshKeys.deleteNamed', { name: sshKey.name })}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
};

/** `/account/ssh-keys`: public keys for SFTP sign-in, with their SHA256 fingerprints; add and delete. */
export const SshKeysPage = () => {
  const { t } = useTranslation();
  const keys = useQuery(sshKeysQuery);
  const remove = useConfirmedAction({
    mutation: useDeleteSshKey(),
    variables: (key: SshKey) => key.fingerprint,
    title: t('account.sshKeys.deleteTitle'),
    message: (key) => t('account.sshKeys.deleteText', { name: key.name }),
    confirmLabel: t('account.sshKeys.delete'),
    danger: true,
  });
  const [adding, setAdding] = useState(false);
  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
      {t('account.sshKeys.add')}
    </Button>
  );

  const list = (
    <QueryListBody query={keys} errorTitle={t('account.sshKeys.loadError')} empty={<EmptyState icon={<IconTerminal2 />} title={t('account.sshKeys.emptyTitle')} description={t('account.sshKeys.emptyText')} action={addButton} />}>
      {(data) => (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.sshKeys.title')}>
          {data.map((key) => (
            <KeyItem key={key.fingerprint} sshKey={key} onDelete={() => remove.ask(key)} />
          ))}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-ssh-keys">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
        <Stack gap={0} style={{ flex: '1 1 240px' }}>
          <Title order={2} size="h4" id="account-ssh-keys">
            {t('account.sshKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('account.sshKeys.text')}
          </Text>
        </Stack>
        {keys.data && keys.data.length > 0 ? addButton : null}
      </Group>
      {list}
      <AddKeyDialog opened={adding} onClose={() => setAdding(false)} />
      {remove.dialog}
    </Card>
  );
};
