import { ActionIcon, Alert, Badge, Button, Card, Group, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconFingerprint, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { QueryListBody } from '@/components/QueryListBody';
import type { Account } from '@/features/account/api';
import { shownError, useFreshSession } from '@/features/account/components/ReauthDialog';
import { passkeysQuery, useAddPasskey, useDeletePasskey, useRenamePasskey, type Passkey } from '@/features/passkeys/api';
import { isAlreadyRegistered, isCancelled, passkeysSupported } from '@/features/passkeys/webauthn';
import { formatDateTime } from '@/lib/format';

const MAX_NAME = 100;

/** A failure worth showing: not a dialog the user closed themselves, nor the "sign in again" one the reauth dialog takes. */
const visible = (error: unknown): unknown => (isCancelled(error) ? null : shownError(error));

const AddForm = ({ account, onDone, onAdded }: { account: Account; onDone: () => void; onAdded?: () => void }) => {
  const { t } = useTranslation();
  const add = useAddPasskey();
  const fresh = useFreshSession(account);
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void fresh.run(() => add.mutateAsync(name.trim())).then((ok) => {
      if (ok) {
        onDone();
        onAdded?.();
      }
    });
  };
  const error = isAlreadyRegistered(add.error) ? new Error(t('account.passkeys.alreadyRegistered')) : visible(add.error);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('account.passkeys.name')}
          description={t('account.passkeys.nameHelp')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={MAX_NAME}
          w={{ base: '100%', xs: 320 }}
          required
          autoFocus
        />
        <FormError error={error} />
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!name.trim()} leftSection={<IconFingerprint size={16} aria-hidden />}>
            {t('account.passkeys.create')}
          </Button>
          <Button variant="default" onClick={onDone} disabled={add.isPending}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
      {fresh.dialog}
    </form>
  );
};

const RenameForm = ({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) => {
  const { t } = useTranslation();
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: passkey.id, name: name.trim() }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <TextInput label={t('account.passkeys.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={MAX_NAME} required autoFocus />
        <FormError error={rename.error} />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={rename.isPending} disabled={!name.trim()}>
            {t('account.passkeys.save')}
          </Button>
          <Button size="xs" variant="default" onClick={onDone} disabled={rename.isPending}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

const PasskeyItem = ({ passkey, onDelete }: { passkey: Passkey; onDelete: () => void }) => {
  const { t, i18n } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={passkey.name}>
      {renaming ? (
        <RenameForm passkey={passkey} onDone={() => setRenaming(false)} />
      ) : (
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {passkey.name}
              </Text>
              {passkey.backedUp ? (
                <Badge variant="default" size="sm">
                  {t('account.passkeys.synced')}
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed">
              {t('account.passkeys.added', { date: formatDateTime(passkey.createdAt, i18n.language) })}
              {' · '}
              {passkey.lastUsedAt ? t('account.passkeys.lastUsed', { date: formatDateTime(passkey.lastUsedAt, i18n.language) }) : t('account.passkeys.neverUsed')}
            </Text>
          </Stack>
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t('account.passkeys.rename')} withArrow>
              <ActionIcon variant="subtle" color="gray" onClick={() => setRenaming(true)} aria-label={t('account.passkeys.renameNamed', { name: passkey.name })}>
                <IconPencil size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('account.passkeys.delete')} withArrow>
              <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('account.passkeys.deleteNamed', { name: passkey.name })}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      )}
    </Paper>
  );
};

/**
 * Passkeys on the account page: each signs in alone (fingerprint, face or device PIN) and counts as
 * the second step after the password. Adding and removing one need a recent sign-in, as two-factor setup does.
 * `onAdded` runs once a passkey is kept (the two-factor policy's setup page then lets the user in).
 */
export const PasskeysCard = ({ account, onAdded }: { account: Account; onAdded?: () => void }) => {
  const { t } = useTranslation();
  const passkeys = useQuery(passkeysQuery);
  const remove = useDeletePasskey();
  const fresh = useFreshSession(account);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const supported = passkeysSupported();

  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)} disabled={!supported}>
      {t('account.passkeys.add')}
    </Button>
  );
  const confirmDelete = () => {
    if (!deleting) {
      return;
    }
    void fresh.run(() => remove.mutateAsync(deleting.id)).then((ok) => {
      if (ok) {
        setDeleting(null);
      }
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-passkeys">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
        <Stack gap={0} style={{ flex: '1 1 240px' }}>
          <Title order={2} size="h4" id="account-passkeys">
            {t('account.passkeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('account.passkeys.text')}
          </Text>
        </Stack>
        {passkeys.data && passkeys.data.length > 0 && !adding ? addButton : null}
      </Group>
      <Stack gap="sm">
        {supported ? null : (
          <Alert color="yellow" variant="light">
            {t('account.passkeys.unsupported')}
          </Alert>
        )}
        {adding ? <AddForm account={account} onDone={() => setAdding(false)} onAdded={onAdded} /> : null}
        <QueryListBody
          query={passkeys}
          errorTitle={t('account.passkeys.loadError')}
          empty={adding ? null : <EmptyState icon={<IconFingerprint />} title={t('account.passkeys.emptyTitle')} description={t(account.hasPassword ? 'account.passkeys.emptyText' : 'account.passkeys.emptyTextNoPassword')} action={addButton} />}
        >
          {(data) => (
            <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.passkeys.title')}>
              {data.map((passkey) => (
                <PasskeyItem key={passkey.id} passkey={passkey} onDelete={() => setDeleting(passkey)} />
              ))}
            </Stack>
          )}
        </QueryListBody>
        <FormError error={visible(remove.error)} />
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('account.passkeys.deleteTitle')}
        message={t('account.passkeys.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('account.passkeys.delete')}
        danger
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
      {fresh.dialog}
    </Card>
  );
};
