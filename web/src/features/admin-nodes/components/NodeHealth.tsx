import { Badge, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { systemQuery } from '@/features/admin-nodes/api';

// Coloured badges keep the text colour: teal or red text on their light fill falls short of 4.5:1.
const TEXT_LABEL = { label: { color: 'var(--mantine-color-text)' } };

/** Whether the node's daemon answers, with its version and CPUs; a node that is down says so and blocks nothing. */
export const NodeHealth = ({ nodeId, detailed = false }: { nodeId: string; detailed?: boolean }) => {
  const { t } = useTranslation();
  const system = useQuery(systemQuery(nodeId));
  if (system.isPending) {
    return (
      <Group gap={6} role="status" aria-label={t('adminNodes.health.checking')}>
        <Loader size={12} aria-hidden />
        <Text size="xs" c="dimmed">
          {t('adminNodes.health.checking')}
        </Text>
      </Group>
    );
  }
  if (system.isError) {
    return (
      <Badge color="red" variant="light" styles={TEXT_LABEL} data-testid={`health-${nodeId}`}>
        {t('adminNodes.health.unreachable')}
      </Badge>
    );
  }
  const s = system.data;
  return (
    <Group gap={6} wrap="wrap">
      <Badge color="teal" variant="light" styles={TEXT_LABEL} data-testid={`health-${nodeId}`}>
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
