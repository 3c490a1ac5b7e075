import { Anchor, Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { type AdminNode, systemQuery } from '@/features/admin-nodes/api';
import { nodeConnection } from '@/features/admin-nodes/health';

// Coloured badges keep the text colour: teal or red text on their light fill falls short of 4.5:1.
const TEXT_LABEL = { label: { color: 'var(--mantine-color-text)' } };

/**
 * Whether the node's daemon answers, with its version and CPUs; a node that is down says so and blocks nothing.
 * A node Wings has not contacted yet waits for it, with how to start it (`onConfiguration`: the hint's link is
 * left out on the configuration tab itself).
 */
export const NodeHealth = ({ node, detailed = false, onConfiguration = false }: { node: Pick<AdminNode, 'id' | 'daemonContactedAt'>; detailed?: boolean; onConfiguration?: boolean }) => {
  const { t } = useTranslation();
  const system = useQuery(systemQuery(node.id));
  const state = nodeConnection(node, system);
  if (state === 'checking') {
    return (
      <Group gap={6} role="status" aria-label={t('adminNodes.health.checking')}>
        <Loader size={12} aria-hidden />
        <Text size="xs" c="dimmed">
          {t('adminNodes.health.checking')}
        </Text>
      </Group>
    );
  }
  if (state === 'waiting') {
    return (
      <Stack gap={2} align="flex-start">
        <Badge color="gray" variant="light" styles={TEXT_LABEL} data-testid={`health-${node.id}`}>
          {t('adminNodes.health.waiting')}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('adminNodes.health.waitingHint')}
          {onConfiguration ? null : (
            <>
              {' '}
              <Anchor inherit underline="always" renderRoot={(props) => <Link {...props} to="/admin/nodes/$nid" params={{ nid: node.id }} search={{ tab: 'configuration' }} />}>
                {t('adminNodes.health.waitingLink')}
              </Anchor>
            </>
          )}
        </Text>
      </Stack>
    );
  }
  if (state === 'unreachable' || !system.data) {
    return (
      <Badge color="red" variant="light" styles={TEXT_LABEL} data-testid={`health-${node.id}`}>
        {t('adminNodes.health.unreachable')}
      </Badge>
    );
  }
  const s = system.data;
  return (
    <Group gap={6} wrap="wrap">
      <Badge color="teal" variant="light" styles={TEXT_LABEL} data-testid={`health-${node.id}`}>
        {t('adminNodes.health.healthy')}
      </Badge>
      <Text size="xs" c="dimmed">
        {detailed
          ? t('adminNodes.health.detail', { version: s.version, cpus: s.cpu_count, os: s.os, arch: s.architecture, kernel: s.kernel_version })
          : t('adminNodes.health.summary', { version: s.version, cpus: s.cpu_count })}
      </Text>
    </Group>
  );
};
