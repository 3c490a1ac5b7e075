import { ActionIcon, Button, Card, Group, Modal, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconMapPin, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { FormError } from '@/components/FormError';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type Location, locationsQuery, useDeleteLocation, useSaveLocation } from '@/features/admin-locations/api';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';
import { useCanWrite } from '@/features/auth/admin-access';

const LocationDialog = ({ location, onClose }: { location?: Location; onClose: () => void }) => {
  const { t } = useTranslation();
  const save = useSaveLocation();
  const [short, setShort] = useState(location?.short ?? '');
  const [long, setLong] = useState(location?.long ?? '');
  const fields = save.error instanceof ApiError ? fieldErrors(save.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: location?.id, body: { short: short.trim(), long: long.trim() || null } },
      {
        onSuccess: (saved) => {
          notify({ color: 'green', message: t(location ? 'adminLocations.saved' : 'adminLocations.created', { name: saved.short }) });
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={save.isPending ? () => undefined : onClose} title={location ? t('adminLocations.editTitle', { name: location.short }) : t('adminLocations.createTitle')} closeButtonProps={{ 'aria-label': t('common.close') }} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('adminLocations.short')} description={t('adminLocations.shortHelp')} value={short} onChange={(e) => setShort(e.currentTarget.value)} error={fields.short} required data-autofocus />
          <TextInput label={t('adminLocations.long')} description={t('adminLocations.longHelp')} value={long} onChange={(e) => setLong(e.currentTarget.value)} error={fields.long} />
          {save.error && Object.keys(fields).length === 0 ? <FormError error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {location ? t('adminLocations.save') : t('adminLocations.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/** /admin/locations: where nodes stand (short code and description); a location with nodes cannot be deleted. */
export const LocationsPage = ({ startCreating = false }: { startCreating?: boolean }) => {
  const { t } = useTranslation();
  const list = useQuery(locationsQuery());
  const remove = useConfirmedAction({
    mutation: useDeleteLocation(),
    variables: (l: Location) => l.id,
    title: t('adminLocations.deleteTitle'),
    message: (l) => t('adminLocations.deleteText', { name: l.short }),
    confirmLabel: t('adminLocations.delete'),
    danger: true,
    successMessage: (l) => t('adminLocations.deleted', { name: l.short }),
  });
  const canWrite = useCanWrite('locations');
  const [editing, setEditing] = useState<Location | 'new' | null>(startCreating && canWrite ? 'new' : null);
  const newButton = canWrite ? <Button onClick={() => setEditing('new')}>{t('adminLocations.create')}</Button> : null;

  const body = (
    <QueryListBody query={list} empty={<EmptyState icon={<IconMapPin />} title={t('adminLocations.emptyTitle')} description={t('adminLocations.emptyText')} action={newButton} />}>
      {(locations) => (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {locations.map((l) => (
            <Card key={l.id} withBorder padding="sm" component="li" aria-label={l.short}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {l.short}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {l.long ?? t('adminLocations.noLong')}
                  </Text>
                </Stack>
                {canWrite ? (
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('adminLocations.edit')}>
                    <ActionIcon variant="subtle" size="lg" onClick={() => setEditing(l)} aria-label={t('adminLocations.editOf', { name: l.short })}>
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('adminLocations.delete')}>
                    <ActionIcon variant="subtle" color="red" size="lg" onClick={() => remove.ask(l)} aria-label={t('adminLocations.deleteOf', { name: l.short })}>
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                ) : null}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminLocations.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      {body}
      {editing ? <LocationDialog location={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
