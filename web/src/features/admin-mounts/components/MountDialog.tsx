import { Button, Checkbox, Group, List, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type MountDetail, type Mount, useSaveMount } from '@/features/admin-mounts/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

/** Paths are typed in monospace; the label, help and error keep the body font. */
const MONO_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** What a source and a target may be, as the panel checks them (docs/admin-mounts.md#path-rules). */
const PathRules = () => {
  const { t } = useTranslation();
  return (
    <Stack gap={4} aria-label={t('adminMounts.rules.title')}>
      <Text size="sm" fw={600}>
        {t('adminMounts.rules.title')}
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>{t('adminMounts.rules.absolute')}</List.Item>
        <List.Item>{t('adminMounts.rules.source')}</List.Item>
        <List.Item>{t('adminMounts.rules.target')}</List.Item>
      </List>
    </Stack>
  );
};

/** New (`mount` undefined) or edit. */
export const MountDialog = ({ mount, onClose, onSaved }: { mount?: Mount; onClose: () => void; onSaved?: (saved: MountDetail) => void }) => {
  const { t } = useTranslation();
  const save = useSaveMount();
  const [name, setName] = useState(mount?.name ?? '');
  const [description, setDescription] = useState(mount?.description ?? '');
  const [source, setSource] = useState(mount?.source ?? '');
  const [target, setTarget] = useState(mount?.target ?? '');
  const [readOnly, setReadOnly] = useState(mount?.readOnly ?? false);
  const [userMountable, setUserMountable] = useState(mount?.userMountable ?? false);
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), description: description.trim() === '' ? null : description.trim(), source: source.trim(), target: target.trim(), readOnly, userMountable };
    save.mutate(
      { id: mount?.id, body },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(mount ? 'adminMounts.saved' : 'adminMounts.created', { name: saved.name }) });
          onSaved?.(saved);
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      opened
      onClose={save.isPending ? () => undefined : onClose}
      title={mount ? t('adminMounts.editTitle', { name: mount.name }) : t('adminMounts.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('adminMounts.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} maxLength={64} required data-autofocus />
          <Textarea label={t('adminMounts.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={fields.description} autosize minRows={1} maxRows={4} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('adminMounts.source')}
              description={t('adminMounts.sourceHelp')}
              placeholder="/srv/maps"
              value={source}
              onChange={(e) => setSource(e.currentTarget.value)}
              error={fields.source}
              styles={MONO_INPUT}
              required
            />
            <TextInput
              label={t('adminMounts.target')}
              description={t('adminMounts.targetHelp')}
              placeholder="/mnt/maps"
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
              error={fields.target}
              styles={MONO_INPUT}
              required
            />
          </SimpleGrid>
          <PathRules />
          <Checkbox label={t('adminMounts.readOnly')} description={t('adminMounts.readOnlyHelp')} checked={readOnly} onChange={(e) => setReadOnly(e.currentTarget.checked)} />
          <Checkbox label={t('adminMounts.userMountable')} description={t('adminMounts.userMountableHelp')} checked={userMountable} onChange={(e) => setUserMountable(e.currentTarget.checked)} />
          {save.error && Object.keys(fields).length === 0 ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {mount ? t('adminMounts.save') : t('adminMounts.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
