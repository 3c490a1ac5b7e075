import { Alert, Loader, MultiSelect, Radio, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { allocationsQuery, type AdminNode, type NodeUsage } from '@/features/admin-servers/api';
import { nodeCapacity } from '@/features/admin-servers/capacity';
import { allocationLabel } from '@/features/admin-servers/components/fields';
import { type StepProps, useRoomText } from '@/features/admin-servers/components/wizard/step-props';
import { onlyChoice } from '@/lib/only-choice';

/** The node (with its room) and the server's addresses on it. */
export const NodeStep = ({ form, patch, errors, nodes, usage }: StepProps & { nodes: AdminNode[]; usage: NodeUsage[] }) => {
  const { t } = useTranslation();
  const roomText = useRoomText();
  const allocations = useQuery(allocationsQuery(form.nodeId));
  const free = useMemo(() => (allocations.data ?? []).filter((a) => !a.assigned), [allocations.data]);
  const options = free.map((a) => ({ value: a.id, label: allocationLabel(a) }));

  // The only node there is, when it has room, is the choice.
  const onlyNode = onlyChoice(nodes);
  const onlyNodeOpen =
    onlyNode !== undefined &&
    nodeCapacity(
      onlyNode,
      usage.find((u) => u.nodeId === onlyNode.id),
    ).blocked === null;
  useEffect(() => {
    if (!form.nodeId && onlyNode && onlyNodeOpen) {
      patch({ nodeId: onlyNode.id });
    }
  }, [form.nodeId, onlyNode, onlyNodeOpen, patch]);

  // A node's first free allocation is the likely primary.
  useEffect(() => {
    if (form.nodeId && !form.allocationId && free.length > 0) {
      patch({ allocationId: free[0].id });
    }
  }, [form.nodeId, form.allocationId, free, patch]);

  if (nodes.length === 0) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
        {t('adminServers.node.none')}
      </Alert>
    );
  }
  return (
    <Stack>
      <Radio.Group label={t('adminServers.fields.node')} description={t('adminServers.node.help')} required value={form.nodeId || null} onChange={(nodeId) => patch({ nodeId, allocationId: '', extraAllocationIds: [] })} error={errors.node_id}>
        <Stack gap="sm" mt="xs">
          {nodes.map((node) => {
            const c = nodeCapacity(
              node,
              usage.find((u) => u.nodeId === node.id),
            );
            return (
              <Radio
                key={node.id}
                value={node.id}
                disabled={c.blocked !== null}
                label={
                  <Text span fw={600}>
                    {node.name}{' '}
                    <Text span c="dimmed" size="sm">
                      ({node.fqdn})
                    </Text>
                  </Text>
                }
                description={
                  <Stack gap={0} component="span">
                    <span>{t('adminServers.node.memory', { room: roomText(c.memory) })}</span>
                    <span>{t('adminServers.node.disk', { room: roomText(c.disk) })}</span>
                    <span>{t('adminServers.node.servers', { count: c.servers })}</span>
                    {c.blocked ? (
                      <Text span size="sm" fw={600} c="var(--mantine-color-error)">
                        {t(`adminServers.node.blocked.${c.blocked}`)}
                      </Text>
                    ) : null}
                  </Stack>
                }
              />
            );
          })}
        </Stack>
      </Radio.Group>
      {form.nodeId ? (
        allocations.isError ? (
          <ErrorState error={allocations.error} onRetry={() => void allocations.refetch()} />
        ) : allocations.isPending ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : free.length === 0 ? (
          <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {t('adminServers.node.noFreeAllocation')}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('adminServers.fields.allocation')}
              description={t('adminServers.fields.allocationHelp', { count: free.length })}
              required
              searchable
              data={options}
              value={form.allocationId || null}
              onChange={(v) => patch({ allocationId: v ?? '', extraAllocationIds: form.extraAllocationIds.filter((x) => x !== v) })}
              error={errors.allocation_id}
            />
            <MultiSelect
              label={t('adminServers.fields.extraAllocations')}
              description={t('adminServers.fields.extraAllocationsHelp')}
              searchable
              data={options.filter((o) => o.value !== form.allocationId)}
              value={form.extraAllocationIds}
              onChange={(extraAllocationIds) => patch({ extraAllocationIds })}
              error={errors.additional_allocation_ids}
              hidePickedOptions
            />
          </SimpleGrid>
        )
      ) : null}
    </Stack>
  );
};
