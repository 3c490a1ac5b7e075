import { Alert, Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { ReadOnlyNotice, ReadOnlyWhen } from '@/components/ReadOnlyWhen';
import { ScrollingTabList } from '@/components/ScrollingTabList';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type AdminNode, nodeQuery, useDeleteNode, useUpdateNode } from '@/features/admin-nodes/api';
import { AllocationsTab } from '@/features/admin-nodes/components/AllocationsTab';
import { ConfigurationTab } from '@/features/admin-nodes/components/ConfigurationTab';
import { DrainSection } from '@/features/admin-nodes/components/DrainSection';
import { NodeForm } from '@/features/admin-nodes/components/NodeForm';
import { NodeHealth } from '@/features/admin-nodes/components/NodeHealth';
import { ServersTab } from '@/features/admin-nodes/components/ServersTab';
import { NODE_TABS, type NodeTab } from '@/features/admin-nodes/node-tabs';
import { useCanWrite } from '@/features/auth/admin-access';
import { notify } from '@/lib/notify';

// uPlot loads with the tab, not with the page.
const NodeUsageHistoryPanel = lazy(() => import('@/features/usage/components/UsageHistory').then((m) => ({ default: m.NodeUsageHistoryPanel })));

const SettingsTab = ({ node }: { node: AdminNode }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateNode(node.id);
  const remove = useDeleteNode();
  const deleteNode = useConfirmedAction({
    mutation: remove,
    variables: (n: AdminNode) => n.id,
    title: t('adminNodes.deleteTitle'),
    message: (n) => t('adminNodes.deleteText', { name: n.name }),
    confirmLabel: t('adminNodes.delete'),
    danger: true,
    successMessage: (n) => t('adminNodes.deleted', { name: n.name }),
    onSuccess: () => void navigate({ to: '/admin/nodes' }),
    notifyOnError: false,
  });
  const [pushError, setPushError] = useState<string | null>(null);
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <NodeForm
          key={node.updatedAt}
          node={node}
          submitLabel={t('adminNodes.save')}
          pending={update.isPending}
          error={update.error}
          onSubmit={(body) =>
            update.mutate(body, {
              onSuccess: ({ meta }) => {
                setPushError(meta.configurationPushed ? null : (meta.pushError ?? ''));
                notify({ color: 'green', message: t('adminNodes.saved') });
              },
            })
          }
        />
        {pushError !== null ? (
          <Alert color="yellow" variant="light" mt="sm" title={t('adminNodes.notPushedTitle')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            {t('adminNodes.notPushed', { reason: pushError })}
          </Alert>
        ) : null}
      </Paper>
      <DrainSection node={node} />
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('adminNodes.deleteTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('adminNodes.deleteHelp')}
          </Text>
          <Group>
            <Button color="red" variant="light" onClick={() => deleteNode.ask(node)}>
              {t('adminNodes.delete')}
            </Button>
          </Group>
          {remove.error ? <FormError error={remove.error} /> : null}
        </Stack>
      </Paper>
      {deleteNode.dialog}
    </Stack>
  );
};

/**
 * /admin/nodes/$nid?tab=: one node: its settings, its Wings configuration, its allocations and its servers.
 * A caller who may only read nodes (an administrator role) sees the settings and allocations with their
 * controls disabled, and no Configuration tab: its config.yml holds the daemon token, which only those
 * who may change the node read.
 */
export const NodePage = ({ nodeId, tab, onTabChange }: { nodeId: string; tab: NodeTab; onTabChange: (tab: NodeTab) => void }) => {
  const { t } = useTranslation();
  const node = useQuery(nodeQuery(nodeId));
  const readOnly = !useCanWrite('nodes');
  const tabs: readonly NodeTab[] = readOnly ? NODE_TABS.filter((x) => x !== 'configuration') : NODE_TABS;
  const shown = tabs.includes(tab) ? tab : 'settings';
  const back = (
    <Anchor component={Link} to="/admin/nodes" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('adminNodes.back')}
      </Group>
    </Anchor>
  );
  if (node.isPending) {
    return <PageSkeleton />;
  }
  if (node.isError) {
    return (
      <Stack>
        {back}
        <ErrorState error={node.error} onRetry={() => void node.refetch()} />
      </Stack>
    );
  }
  const n = node.data;
  return (
    <Stack gap="md">
      {back}
      <Stack gap={4}>
        <Group gap="xs">
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {n.name}
          </Title>
          {n.maintenanceMode ? (
            <Badge color="orange" variant="light" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
              {t('adminNodes.maintenanceBadge')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {n.baseUrl}
        </Text>
        <NodeHealth node={n} detailed onConfiguration={shown === 'configuration'} />
      </Stack>
      <ReadOnlyNotice when={readOnly}>{t('adminNodes.readOnly')}</ReadOnlyNotice>
      <Tabs value={shown} onChange={(v) => onTabChange(tabs.find((x) => x === v) ?? 'settings')} keepMounted={false}>
        {/* Five tabs overflow a phone: the bar scrolls and keeps the selected one in view (it wrapped). */}
        <ScrollingTabList label={t('adminNodes.tabs.label')} active={shown}>
          {tabs.map((x) => (
            <Tabs.Tab key={x} value={x}>
              {t(`adminNodes.tabs.${x}`)}
            </Tabs.Tab>
          ))}
        </ScrollingTabList>
        <Tabs.Panel value="settings" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <SettingsTab node={n} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        {readOnly ? null : (
          <Tabs.Panel value="configuration" pt="md">
            <ConfigurationTab node={n} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="allocations" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <AllocationsTab nodeId={n.id} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        <Tabs.Panel value="servers" pt="md">
          <ServersTab nodeId={n.id} />
        </Tabs.Panel>
        <Tabs.Panel value="usage" pt="md">
          <Suspense fallback={<Skeleton height={200} />}>
            <NodeUsageHistoryPanel nodeId={n.id} />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
};
