import { ActionIcon, Badge, Button, Card, Code, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconNetwork, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { allocationAddress } from '@/features/network/address';
import { allocationsQuery, useAddAllocation, useMakePrimary, useRemoveAllocation, useSetNotes, type Allocation } from '@/features/network/api';
import { serverQuery } from '@/features/server/api';
import { notify, notifyError } from '@/lib/notify';

const NOTES_MAX = 191;

/** The notes of one allocation, edited in place; an empty box clears them. */
const NotesForm = ({ serverId, allocation, onDone }: { serverId: string; allocation: Allocation; onDone: () => void }) => {
  const { t } = useTranslation();
  const save = useSetNotes(serverId);
  const [notes, setNotes] = useState(allocation.notes ?? '');
  const address = allocationAddress(allocation);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ allocation: allocation.id, notes: notes.trim() ? notes.trim() : null }, { onSuccess: onDone });
      }}
    >
      <Stack gap="xs">
        <TextInput label={t('network.notesOf', { address })} description={t('network.notesHelp', { max: NOTES_MAX })} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} maxLength={NOTES_MAX} autoComplete="off" autoFocus />
        <FormError error={save.error} />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={save.isPending}>
            {t('network.saveNotes')}
          </Button>
          <Button variant="default" size="xs" onClick={onDone} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** /server/$id/network: the server's allocations (primary first in the badge), their notes, copy, and the primary switch. */
export const NetworkPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const server = useQuery(serverQuery(serverId));
  const list = useQuery(allocationsQuery(serverId));
  const primary = useMakePrimary(serverId);
  const add = useAddAllocation(serverId);
  const remove = useConfirmedAction({
    mutation: useRemoveAllocation(serverId),
    variables: (a: Allocation) => a.id,
    title: t('network.removeTitle'),
    message: (a) => t('network.removeText', { address: allocationAddress(a) }),
    confirmLabel: t('network.remove'),
    danger: true,
    successMessage: (a) => t('network.removed', { address: allocationAddress(a) }),
    keepOpenOnError: true,
  });
  const reasonId = useId();
  const [editing, setEditing] = useState<string | null>(null);

  return (
    <QueryListBody query={list} waiting={server.isPending} loading={<ListSkeleton rows={2} />}>
      {(allocations) => {
        const granted = new Set(server.data?.permissions ?? []);
        const canEdit = granted.has('server.allocation.update');
        // The limit counts every allocation; at 0 they are the administrator's to add and remove.
        const limit = server.data?.featureLimits.allocations ?? 0;
        const count = allocations.length;
        const reason = limit === 0 ? t('network.adminOnly') : count >= limit ? t('network.full') : null;
        const canRemove = granted.has('server.allocation.delete') && limit > 0;

        return (
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap" align="flex-start">
              <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                <Title order={2} size="h3">
                  {t('network.title')}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('network.intro')}
                </Text>
              </Stack>
              {granted.has('server.allocation.create') ? (
                <Button
                  leftSection={<IconPlus size={16} aria-hidden />}
                  disabled={reason !== null}
                  aria-describedby={reason ? reasonId : undefined}
                  loading={add.isPending}
                  onClick={() =>
                    add.mutate(undefined, {
                      onSuccess: (a) => notify({ color: 'green', message: t('network.added', { address: allocationAddress(a) }) }),
                      onError: notifyError,
                    })
                  }
                >
                  {t('network.add')}
                </Button>
              ) : null}
            </Group>
            {limit > 0 ? <Text size="sm">{t('network.usage', { count, limit })}</Text> : null}
            {reason && granted.has('server.allocation.create') ? (
              <Text size="sm" c="dimmed" id={reasonId}>
                {reason}
              </Text>
            ) : null}
            {allocations.length === 0 ? (
              <EmptyState icon={<IconNetwork size={28} />} title={t('network.emptyTitle')} description={t('network.emptyText')} />
            ) : (
              <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {allocations.map((a) => {
                  const address = allocationAddress(a);
                  return (
                    <Card key={a.id} withBorder component="li" padding="sm" aria-label={address} data-primary={a.isDefault}>
                      <Stack gap="xs">
                        <Group justify="space-between" wrap="wrap" gap="xs">
                          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                            <Code fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                              {address}
                            </Code>
                            <CopyButton value={address} label={t('network.copyAddress', { address })} />
                            {a.isDefault ? <Badge color="teal.9">{t('network.primary')}</Badge> : null}
                          </Group>
                          {(canEdit || canRemove) && editing !== a.id ? (
                            <Group gap="xs">
                              {canEdit ? (
                                <Button variant="default" size="xs" onClick={() => setEditing(a.id)} aria-label={t('network.editNotesOf', { address })}>
                                  {t('network.editNotes')}
                                </Button>
                              ) : null}
                              {canEdit && !a.isDefault ? (
                                <Button
                                  variant="default"
                                  size="xs"
                                  loading={primary.isPending && primary.variables === a.id}
                                  onClick={() =>
                                    primary.mutate(a.id, {
                                      onSuccess: () => notify({ color: 'green', message: t('network.primaryChanged', { address }) }),
                                      onError: notifyError,
                                    })
                                  }
                                  aria-label={t('network.makePrimaryOf', { address })}
                                >
                                  {t('network.makePrimary')}
                                </Button>
                              ) : null}
                              {canRemove && !a.isDefault ? (
                                <Tooltip label={t('network.remove')}>
                                  <ActionIcon variant="subtle" color="red" size="lg" onClick={() => remove.ask(a)} aria-label={t('network.removeOf', { address })}>
                                    <IconTrash size={18} aria-hidden />
                                  </ActionIcon>
                                </Tooltip>
                              ) : null}
                            </Group>
                          ) : null}
                        </Group>
                        {a.alias ? (
                          <Text size="xs" c="dimmed">
                            {t('network.ip', { ip: a.ip })}
                          </Text>
                        ) : null}
                        {editing === a.id ? (
                          <NotesForm serverId={serverId} allocation={a} onDone={() => setEditing(null)} />
                        ) : (
                          <Text size="sm" c={a.notes ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }} data-testid="allocation-notes">
                            {a.notes ?? t('network.noNotes')}
                          </Text>
                        )}
                      </Stack>
                    </Card>
                  );
                })}
              </Stack>
            )}
            {remove.dialog}
          </Stack>
        );
      }}
    </QueryListBody>
  );
};
