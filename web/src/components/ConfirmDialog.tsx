import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** Red confirm button, for what cannot be undone. */
  danger?: boolean;
  /** The action is running: the confirm button spins and the dialog stays open. */
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before an action; focus starts on Cancel so Enter never confirms a destructive action by accident. */
export const ConfirmDialog = ({ opened, title, message, confirmLabel, danger, loading, onConfirm, onClose }: ConfirmDialogProps) => {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={loading ? () => undefined : onClose} title={title} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <Stack>
        {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={loading} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading}>
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};
