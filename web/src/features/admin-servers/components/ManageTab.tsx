import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormError } from '@/components/FormError';
import { type AdminServer, useDeleteServer, useReinstall, useSetSuspended } from '@/features/admin-servers/api';
import { notifySaved } from '@/features/admin-servers/components/notify-saved';
import { TransferSection } from '@/features/admin-servers/components/TransferSection';
import { ApiError } from '@/lib/api/api-error';
import { notify, notifyError } from '@/lib/notify';

/** The panel lets a delete go on without the daemon only when the node could not be reached (502/503). */
const nodeUnreachable = (error: unknown): boolean => error instanceof ApiError && (error.status === 502 || error.status === 503);

interface TypedDialogProps {
  title: string;
  text: string;
  name: string;
  confirmLabel: string;
  loading: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  /** Shown under the error, e.g. the force delete offer. */
  extra?: ReactNode;
}

/** Asks for the server's name to be typed before an action that cannot be undone. */
const TypedDialog = ({ title, text, name, confirmLabel, loading, error, onConfirm, onClose, extra }: TypedDialogProps) => {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  return (
    <Modal opened onClose={loading ? () => undefined : onClose} title={title} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (typed === name) {
            onConfirm();
          }
        }}
      >
        <Stack>
          <Text size="sm">{text}</Text>
          <TextInput label={t('adminServers.manage.typeName', { name })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
          {error && !extra ? <FormError error={error} /> : null}
          {extra}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={loading}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={typed !== name} loading={loading}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const ActionRow = ({ title, text, children }: { title: string; text: string; children: ReactNode }) => (
  <Group justify="space-between" wrap="wrap" gap="sm" align="center">
    <Stack gap={2} style={{ flex: '1 1 260px' }}>
      <Text fw={600}>{title}</Text>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Stack>
    {children}
  </Group>
);

/** Suspend or unsuspend, reinstall, delete (with force when the node cannot be reached). */
export const ManageTab = ({ server, onDeleted }: { server: AdminServer; onDeleted: () => void }) => {
  const { t } = useTranslation();
  const suspend = useSetSuspended(server.id);
  const reinstall = useReinstall(server.id);
  const remove = useDeleteServer(server.id);
  const [dialog, setDialog] = useState<'suspend' | 'reinstall' | 'delete' | null>(null);

  const close = () => {
    setDialog(null);
    reinstall.reset();
    remove.reset();
  };
  const deleteServer = (force: boolean) =>
    remove.mutate(force, {
      onSuccess: () => {
        notify({ color: 'green', message: t(force ? 'adminServers.manage.forceDeleted' : 'adminServers.manage.deleted', { name: server.name }) });
        onDeleted();
      },
    });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="manage-title">
      <Stack gap="lg">
        <Title order={3} size="h4" id="manage-title">
          {t('adminServers.manage.title')}
        </Title>
        <ActionRow
          title={server.suspended ? t('adminServers.manage.unsuspend') : t('adminServers.manage.suspend')}
          text={server.suspended ? t('adminServers.manage.unsuspendText') : t('adminServers.manage.suspendText')}
        >
          {server.suspended ? (
            <Button variant="default" loading={suspend.isPending} onClick={() => suspend.mutate(false, { onSuccess: notifySaved, onError: notifyError })}>
              {t('adminServers.manage.unsuspend')}
            </Button>
          ) : (
            <Button variant="default" color="orange" onClick={() => setDialog('suspend')}>
              {t('adminServers.manage.suspend')}
            </Button>
          )}
        </ActionRow>
        <TransferSection server={server} />
        <ActionRow title={t('adminServers.manage.reinstall')} text={t('adminServers.manage.reinstallText')}>
          <Button variant="default" color="red" onClick={() => setDialog('reinstall')} disabled={server.installStatus === 'installing'}>
            {t('adminServers.manage.reinstall')}
          </Button>
        </ActionRow>
        <ActionRow title={t('adminServers.manage.delete')} text={t('adminServers.manage.deleteText')}>
          <Button color="red" onClick={() => setDialog('delete')}>
            {t('adminServers.manage.delete')}
          </Button>
        </ActionRow>
      </Stack>
      <ConfirmDialog
        opened={dialog === 'suspend'}
        title={t('adminServers.manage.suspendTitle')}
        message={t('adminServers.manage.suspendConfirm', { name: server.name })}
        confirmLabel={t('adminServers.manage.suspend')}
        danger
        loading={suspend.isPending}
        onClose={close}
        onConfirm={() =>
          suspend.mutate(true, {
            onSuccess: (outcome) => {
              notifySaved(outcome);
              close();
            },
            onError: notifyError,
          })
        }
      />
      {dialog === 'reinstall' ? (
        <TypedDialog
          title={t('adminServers.manage.reinstallTitle')}
          text={t('adminServers.manage.reinstallConfirm')}
          name={server.name}
          confirmLabel={t('adminServers.manage.reinstall')}
          loading={reinstall.isPending}
          error={reinstall.error}
          onClose={close}
          onConfirm={() =>
            reinstall.mutate(undefined, {
              onSuccess: () => {
                notify({ color: 'green', message: t('adminServers.manage.reinstalling') });
                close();
              },
            })
          }
        />
      ) : null}
      {dialog === 'delete' ? (
        <TypedDialog
          title={t('adminServers.manage.deleteTitle')}
          text={t('adminServers.manage.deleteConfirm')}
          name={server.name}
          confirmLabel={t('adminServers.manage.delete')}
          loading={remove.isPending}
          error={remove.error}
          onClose={close}
          onConfirm={() => deleteServer(false)}
          extra={
            nodeUnreachable(remove.error) ? (
              <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title={t('adminServers.manage.unreachableTitle')} role="alert">
                <Stack gap="xs">
                  <FormError error={remove.error} />
                  <Text size="sm">{t('adminServers.manage.unreachableText')}</Text>
                  <Group>
                    <Button color="red" variant="filled" loading={remove.isPending} onClick={() => deleteServer(true)}>
                      {t('adminServers.manage.forceDelete')}
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : undefined
          }
        />
      ) : null}
    </Card>
  );
};
