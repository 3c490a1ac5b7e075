import { ActionIcon, Badge, Button, Card, Checkbox, Group, Pagination, Paper, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { FormError } from '@/components/FormError';
import { ListSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type Allocation, allocationsQuery, useCreateAllocations, useDeleteAllocations } from '@/features/admin-nodes/api';
import { parsePorts } from '@/features/admin-nodes/ports';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { notify } from '@/lib/notify';

const AddAllocations = ({ nodeId }: { nodeId: string }) => {
  const { t } = useTranslation();
  const create = useCreateAllocations(nodeId);
  const [ip, setIp] = useState('0.0.0.0');
  const [ports, setPorts] = useState('');
  const [alias, setAlias] = useState('');
  const parsed = parsePorts(ports);
  const fields = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ('error' in parsed) {
      return;
    }
    create.mutate(
      { ip: ip.trim(), ports: parsed.ports, alias: alias.trim() || null },
      {
        onSuccess: () => {
          notify({ color: 'green', message: t('adminNodes.allocations.added', { count: parsed.count }) });
          setPorts('');
        },
      },
    );
  };
  const portsError = ports.trim() && 'error' in parsed ? t(`adminNodes.allocations.portErrors.${parsed.error}`) : fields.ports;
  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminNodes.allocations.addTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput label={t('adminNodes.allocations.ip')} description={t('adminNodes.allocations.ipHelp')} value={ip} onChange={(e) => setIp(e.currentTarget.value)} error={fields.ip} required />
            <TextInput label={t('adminNodes.allocations.ports')} description={t('adminNodes.allocations.portsHelp')} placeholder="25565, 25570-25580" value={ports} onChange={(e) => setPorts(e.currentTarget.value)} error={portsError} required />
            <TextInput label={t('adminNodes.allocations.alias')} description={t('adminNodes.allocations.aliasHelp')} value={alias} onChange={(e) => setAlias(e.currentTarget.value)} error={fields.alias} />
          </SimpleGrid>
          {create.error && Object.keys(fields).length === 0 ? <FormError error={create.error} /> : null}
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              {'ports' in parsed && parsed.count > 0 ? t('adminNodes.allocations.willAdd', { count: parsed.count }) : ''}
            </Text>
            <Button type="submit" loading={create.isPending} disabled={!('ports' in parsed) || parsed.count === 0}>
              {t('adminNodes.allocations.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
};

/** The node's addresses: add ports and ranges, see which server holds each, delete one or many. */
export const AllocationsTab = ({ nodeId }: { nodeId: string }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(allocationsQuery(nodeId, page));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const remove = useConfirmedAction({
    mutation: useDeleteAllocations(nodeId),
    variables: (ids: string[]) => ids,
    title: t('adminNodes.allocations.deleteTitle'),
    message: (ids) => t('adminNodes.allocations.deleteText', { count: ids.length }),
    confirmLabel: t('adminNodes.allocations.delete'),
    danger: true,
    onSuccess: (_ids, { deleted, error }) => {
      if (error) {
        notify({ color: 'red', message: t('adminNodes.allocations.partlyDeleted', { count: deleted }) });
      } else {
        notify({ color: 'green', message: t('adminNodes.allocations.deleted', { count: deleted }) });
      }
      setSelected(new Set());
    },
    keepOpenOnError: true,
    notifyOnError: false,
  });
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) {
        next.add(id);
      } else {
        next.delete(id);
      }
      return next;
    });

  const body = (
    <QueryListBody query={list} loading={<ListSkeleton rows={4} />} isEmpty={(data) => data.allocations.length === 0} empty={<EmptyState title={t('adminNodes.allocations.emptyTitle')} description={t('adminNodes.allocations.emptyText')} />}>
      {(data) => {
        const free = data.allocations.filter((a) => !a.assigned);
        const allFree = free.length > 0 && free.every((a) => selected.has(a.id));
        return (
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Checkbox
                label={t('adminNodes.allocations.selectFree')}
                checked={allFree}
                indeterminate={!allFree && selected.size > 0}
                disabled={free.length === 0}
                onChange={(e) => setSelected(e.currentTarget.checked ? new Set(free.map((a) => a.id)) : new Set())}
              />
              <Button color="red" variant="light" size="xs" disabled={selected.size === 0} onClick={() => remove.ask([...selected])}>
                {t('adminNodes.allocations.deleteSelected', { count: selected.size })}
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              {t('adminNodes.allocations.count', { count: data.total })}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {data.allocations.map((a: Allocation) => {
                const address = `${a.alias ?? a.ip}:${a.port}`;
                return (
                  <Card key={a.id} withBorder padding="xs" component="li" aria-label={address}>
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                        <Checkbox aria-label={t('adminNodes.allocations.select', { address })} checked={selected.has(a.id)} disabled={a.assigned} onChange={(e) => toggle(a.id, e.currentTarget.checked)} />
                        <Stack gap={0} style={{ minWidth: 0 }}>
                          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                            {address}
                          </Text>
                          {a.alias ? (
                            <Text size="xs" c="dimmed">
                              {a.ip}
                            </Text>
                          ) : null}
                          {a.notes ? (
                            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                              {a.notes}
                            </Text>
                          ) : null}
                        </Stack>
                      </Group>
                      {a.assigned ? (
                        <Badge variant="light" style={{ flexShrink: 0 }}>
                          {t('adminNodes.allocations.server', { id: a.serverId })}
                        </Badge>
                      ) : (
                        <Tooltip label={t('adminNodes.allocations.delete')}>
                          <ActionIcon variant="subtle" color="red" onClick={() => remove.ask([a.id])} aria-label={t('adminNodes.allocations.deleteOf', { address })}>
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                  </Card>
                );
              })}
            </SimpleGrid>
            {data.totalPages > 1 ? (
              <Group justify="center">
                <Pagination
                  total={data.totalPages}
                  value={page}
                  onChange={setPage}
                  getItemProps={(p) => ({ 'aria-label': t('adminNodes.allocations.page', { page: p }) })}
                  getControlProps={(control) => ({ 'aria-label': t(control === 'previous' || control === 'first' ? 'adminNodes.allocations.previousPage' : 'adminNodes.allocations.nextPage') })}
                  size="sm"
                />
              </Group>
            ) : null}
          </Stack>
        );
      }}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <AddAllocations nodeId={nodeId} />
      {body}
      {remove.dialog}
    </Stack>
  );
};
