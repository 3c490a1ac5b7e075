import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconMailOff, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { serverQuery } from '@/features/server/api';
import { subusersQuery, type Subuser, type SubuserEmail, useRemoveSubuser, useSaveSubuser } from '@/features/subusers/api';
import { PermissionMatrix } from '@/features/subusers/components/PermissionMatrix';
import { notify } from '@/lib/notify';

/** Add (`subuser: null` with an e-mail field) or edit a subuser's permissions. */
const SubuserDialog = ({
  serverId,
  subuser,
  grantable,
  onClose,
  onAdded,
}: {
  serverId: string;
  subuser: Subuser | null;
  grantable: ReadonlySet<string>;
  onClose: () => void;
  /** The e-mail address added, and what became of the e-mail that tells them. */
  onAdded: (added: { email: string; mail: SubuserEmail }) => void;
}) => {
  const { t } = useTranslation();
  const save = useSaveSubuser(serverId);
  const [email, setEmail] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(subuser?.permissions ?? []));
  return (
    <Modal opened onClose={onClose} size="xl" title={subuser ? t('subusers.editTitle', { name: subuser.username }) : t('subusers.addTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const address = email.trim();
          save.mutate(
            { userId: subuser?.id, email: subuser ? undefined : address, permissions: [...chosen] },
            {
              onSuccess: (mail) => {
                notify({ color: 'green', message: subuser ? t('subusers.saved') : t('subusers.added') });
                if (mail) {
                  onAdded({ email: address, mail });
                }
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          {subuser ? null : <TextInput label={t('subusers.email')} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />}
          <Text size="sm" c="dimmed">
            {t('subusers.matrixHelp')}
          </Text>
          <PermissionMatrix chosen={chosen} grantable={grantable} onChange={setChosen} />
          {save.error ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {subuser ? t('subusers.save') : t('subusers.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** /server/$id/users: the server's subusers, what each may do, and adding, editing and removing them. */
export const SubusersPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const server = useQuery(serverQuery(serverId));
  const list = useQuery(subusersQuery(serverId));
  const remove = useConfirmedAction({
    mutation: useRemoveSubuser(serverId),
    variables: (u: Subuser) => u.id,
    title: t('subusers.removeTitle'),
    message: (u) => t('subusers.removeText', { email: u.email }),
    confirmLabel: t('subusers.remove'),
    danger: true,
    successMessage: () => t('subusers.removed'),
    keepOpenOnError: true,
  });
  const [editing, setEditing] = useState<Subuser | 'new' | null>(null);
  // Whether the last subuser added was e-mailed: when not, the owner must hear it, and why.
  const [added, setAdded] = useState<{ email: string; mail: SubuserEmail } | null>(null);
  const granted = new Set(server.data?.permissions ?? []);
  const addButton = granted.has('server.subuser.create') ? <Button onClick={() => setEditing('new')}>{t('subusers.add')}</Button> : null;

  let body;
  if (list.isPending || server.isPending) {
    body = <ListSkeleton rows={3} />;
  } else if (list.isError) {
    body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  } else if (list.data.length === 0) {
    body = <EmptyState title={t('subusers.emptyTitle')} description={t('subusers.emptyText')} action={addButton} />;
  } else {
    body = (
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {list.data.map((s) => (
          <Card key={s.id} withBorder component="li" padding="sm" aria-label={s.email}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {s.username}
                  </Text>
                  {s.twoFactorEnabled ? <Badge variant="light">{t('subusers.twoFactor')}</Badge> : null}
                </Group>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {s.email}
                </Text>
                <Text size="sm">{t('subusers.permissionCount', { count: s.permissions.length })}</Text>
              </Stack>
              <Group gap="xs">
                {granted.has('server.subuser.update') ? (
                  <Button variant="default" size="xs" onClick={() => setEditing(s)} aria-label={t('subusers.editOf', { email: s.email })}>
                    {t('subusers.edit')}
                  </Button>
                ) : null}
                {granted.has('server.subuser.delete') ? (
                  <Tooltip label={t('subusers.remove')}>
                    <ActionIcon variant="subtle" color="red" size="lg" onClick={() => remove.ask(s)} aria-label={t('subusers.removeOf', { email: s.email })}>
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ) : null}
              </Group>
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3">
          {t('subusers.title')}
        </Title>
        {list.data && list.data.length > 0 ? addButton : null}
      </Group>
      {added && !added.mail.sent ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconMailOff size={18} aria-hidden />}
          title={t('subusers.noEmailTitle')}
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
          withCloseButton
          closeButtonLabel={t('subusers.noEmailDismiss')}
          onClose={() => setAdded(null)}
          role="alert"
        >
          {t(added.mail.reason === 'mail_failed' ? 'subusers.noEmail_mail_failed' : 'subusers.noEmail_mail_not_configured', { email: added.email })}
        </Alert>
      ) : added ? (
        <Alert color="teal" variant="light" withCloseButton closeButtonLabel={t('subusers.noEmailDismiss')} onClose={() => setAdded(null)} role="status">
          {t('subusers.emailSent', { email: added.email })}
        </Alert>
      ) : null}
      {body}
      {editing ? <SubuserDialog serverId={serverId} subuser={editing === 'new' ? null : editing} grantable={granted} onClose={() => setEditing(null)} onAdded={setAdded} /> : null}
      {remove.dialog}
    </Stack>
  );
};
