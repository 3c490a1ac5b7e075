import { Anchor, Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconServer2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { nodesQuery, useCreateNode } from '@/features/admin-nodes/api';
import { NodeForm } from '@/features/admin-nodes/components/NodeForm';
import { NodeHealth } from '@/features/admin-nodes/components/NodeHealth';
import { formatBytes } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useAdminAccess } from '@/features/auth/admin-access';

const MIB = 1024 * 1024;

/** /admin/nodes: every node with its daemon's health (each asked on its own), and a new node. */
export const NodesPage = ({ startCreating = false }: { startCreating?: boolean }) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = useQuery(nodesQuery());
  const create = useCreateNode();
  // A new node belongs to no role's nodes yet: only a grant on every node may add one.
  const access = useAdminAccess();
  const canCreate = access.can('nodes', 'write') && access.everyNode('nodes');
  const [creating, setCreating] = useState(startCreating && canCreate);
  const newButton = canCreate ? <Button onClick={() => setCreating(true)}>{t('adminNodes.create')}</Button> : null;

  const body = (
    <QueryListBody query={list} empty={<EmptyState icon={<IconServer2 />} title={t('adminNodes.emptyTitle')} description={t('adminNodes.emptyText')} action={newButton} />}>
      {(data) => (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.map((node) => (
            <Card key={node.id} withBorder padding="sm" component="li" aria-label={node.name}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Anchor renderRoot={(props) => <Link {...props} to="/admin/nodes/$nid" params={{ nid: node.id }} />} fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {node.name}
                    </Anchor>
                    {node.maintenanceMode ? (
                      <Badge color="orange" variant="light" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                        {t('adminNodes.maintenanceBadge')}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {node.baseUrl} · {t('adminNodes.capacity', { memory: formatBytes(node.memory * MIB, i18n.language), disk: formatBytes(node.disk * MIB, i18n.language) })}
                  </Text>
                  <NodeHealth node={node} />
                </Stack>
                <Button variant="default" size="xs" renderRoot={(props) => <Link {...props} to="/admin/nodes/$nid" params={{ nid: node.id }} />} aria-label={t('adminNodes.manageOf', { name: node.name })}>
                  {t('adminNodes.manage')}
                </Button>
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
          {t('adminNodes.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      {body}
      <Modal
        opened={creating}
        onClose={() => {
          if (!create.isPending) {
            create.reset();
            setCreating(false);
          }
        }}
        title={t('adminNodes.createTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        size="lg"
        centered
      >
        <NodeForm
          submitLabel={t('adminNodes.create')}
          pending={create.isPending}
          error={create.error}
          onCancel={() => setCreating(false)}
          onSubmit={(body) =>
            create.mutate(body, {
              onSuccess: (node) => {
                notify({ color: 'green', message: t('adminNodes.created', { name: node.name }) });
                setCreating(false);
                void navigate({ to: '/admin/nodes/$nid', params: { nid: node.id }, search: { tab: 'configuration' } });
              },
            })
          }
        />
      </Modal>
    </Stack>
  );
};
