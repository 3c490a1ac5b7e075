import { Button, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { type AdminServer, useUpdateDetails } from '@/features/admin-servers/api';
import { OwnerSelect } from '@/features/admin-servers/components/fields';
import { notifySaved } from '@/features/admin-servers/components/notify-saved';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { formatDateTime } from '@/lib/format';

/** Name, description and owner; the panel has no external id, so there is none to edit. */
export const DetailsTab = ({ server }: { server: AdminServer }) => {
  const { t, i18n } = useTranslation();
  const update = useUpdateDetails(server.id);
  const [name, setName] = useState(server.name);
  const [description, setDescription] = useState(server.description ?? '');
  const [ownerId, setOwnerId] = useState(server.ownerId);
  const fields = update.error instanceof ApiError ? fieldErrors(update.error) : {};
  const ownerError = update.error instanceof ApiError && update.error.code === 'USER_NOT_FOUND' ? update.error.message : fields.owner_id;
  const changed = name.trim() !== server.name || description.trim() !== (server.description ?? '') || ownerId !== server.ownerId;
  const facts: [string, string][] = [
    [t('adminServers.details.uuid'), server.uuid],
    [t('adminServers.details.created'), formatDateTime(server.createdAt, i18n.language)],
    [t('adminServers.details.installed'), server.installedAt ? formatDateTime(server.installedAt, i18n.language) : '–'],
  ];
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          {
            ...(name.trim() !== server.name ? { name: name.trim() } : {}),
            ...(description.trim() !== (server.description ?? '') ? { description: description.trim() || null } : {}),
            ...(ownerId !== server.ownerId ? { owner_id: ownerId } : {}),
          },
          { onSuccess: notifySaved },
        );
      }}
    >
      <Stack maw={640}>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" component="dl" m={0}>
          {facts.map(([label, value]) => (
            <Stack key={label} gap={0}>
              <Text component="dt" size="xs" c="dimmed">
                {label}
              </Text>
              <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <TextInput label={t('adminServers.fields.name')} required maxLength={191} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} />
        <Textarea label={t('adminServers.fields.description')} autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={fields.description} />
        <OwnerSelect value={ownerId} onChange={setOwnerId} error={ownerError} />
        {update.error && Object.keys(fields).length === 0 && !ownerError ? <FormError error={update.error} /> : null}
        <Group justify="flex-end">
          <Button type="submit" disabled={!changed || name.trim() === ''} loading={update.isPending}>
            {t('adminServers.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
