import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormError } from '@/components/FormError';
import { type Nest, useDeleteNest, useSaveNest } from '@/features/admin-eggs/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

/** Create a nest (no `nest`) or edit one: name, description, author. */
export const NestDialog = ({ nest, onClose, onSaved }: { nest?: Nest; onClose: () => void; onSaved?: (nest: Nest) => void }) => {
  const { t } = useTranslation();
  const save = useSaveNest();
  const [name, setName] = useState(nest?.name ?? '');
  const [description, setDescription] = useState(nest?.description ?? '');
  const [author, setAuthor] = useState(nest?.author ?? '');
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  return (
    <Modal opened onClose={onClose} title={nest ? t('adminEggs.nests.editTitle') : t('adminEggs.nests.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(
            { id: nest?.id, name: name.trim(), description: description.trim() || null, ...(author.trim() ? { author: author.trim() } : {}) },
            {
              onSuccess: (saved) => {
                notify({ color: 'green', message: nest ? t('adminEggs.nests.saved') : t('adminEggs.nests.created', { name: saved.name }) });
                onClose();
                onSaved?.(saved);
              },
            },
          );
        }}
      >
        <Stack>
          <TextInput label={t('adminEggs.nests.name')} required maxLength={191} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} data-autofocus />
          <Textarea label={t('adminEggs.nests.description')} autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={fields.description} />
          <TextInput
            label={t('adminEggs.nests.author')}
            description={nest ? undefined : t('adminEggs.nests.authorHelp')}
            type="email"
            maxLength={191}
            value={author}
            onChange={(e) => setAuthor(e.currentTarget.value)}
            error={fields.author}
          />
          {save.error && Object.keys(fields).length === 0 ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim()}>
              {nest ? t('adminEggs.save') : t('adminEggs.nests.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/**
 * Deleting a nest: the panel refuses while it holds eggs, so a nest known to hold some is told so
 * instead of offered (and a refusal that still comes, from an egg added meanwhile, is shown the same).
 */
export const DeleteNestDialog = ({ nest, eggCount, onClose, onDeleted }: { nest: Nest; eggCount: number | undefined; onClose: () => void; onDeleted?: () => void }) => {
  const { t } = useTranslation();
  const remove = useDeleteNest();
  if (eggCount !== undefined && eggCount > 0) {
    return (
      <Modal opened onClose={onClose} title={t('adminEggs.nests.deleteTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
        <Stack>
          <Alert color="yellow" variant="light" role="alert" p="sm">
            <Text size="sm">{t('adminEggs.nests.hasEggs', { name: nest.name, count: eggCount })}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  return (
    <ConfirmDialog
      opened
      title={t('adminEggs.nests.deleteTitle')}
      message={
        <Stack gap="sm">
          <Text size="sm">{t('adminEggs.nests.deleteText', { name: nest.name })}</Text>
          {remove.error ? <FormError error={remove.error} /> : null}
        </Stack>
      }
      confirmLabel={t('adminEggs.nests.delete')}
      danger
      loading={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(nest.id, {
          onSuccess: () => {
            notify({ color: 'green', message: t('adminEggs.nests.deleted', { name: nest.name }) });
            onClose();
            onDeleted?.();
          },
        })
      }
    />
  );
};
