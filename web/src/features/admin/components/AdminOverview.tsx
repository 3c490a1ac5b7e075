import { Anchor, Badge, Card, Group, List, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { type AdminOverview as Overview, type NodeHealth, overviewQuery, type SetupStepKey } from '@/features/admin/api';

// Light badges keep the text colour: their tinted label alone is too faint to read (axe's contrast check).
const TEXT_LABEL = { label: { color: 'var(--mantine-color-text)' } };

type Target = Pick<LinkProps, 'to' | 'params' | 'search'>;

/** Where each step is done: the page or dialog that creates the thing. */
const stepTarget = (key: SetupStepKey, nodes: NodeHealth[]): Target => {
  switch (key) {
    case 'location':
      return { to: '/admin/locations', search: { create: true } };
    case 'node':
      return { to: '/admin/nodes', search: { create: true } };
    case 'wings': {
      // The configuration of the first node whose Wings does not answer yet.
      const waiting = nodes.find((n) => n.status !== 'reachable');
      return waiting
        ? {
            to: '/admin/nodes/$nid',
            params: { nid: waiting.id },
            search: { tab: 'configuration' },
          }
        : { to: '/admin/nodes' };
    }
    case 'egg':
      return { to: '/admin/eggs/gallery' };
    case 'user':
      return { to: '/admin/users', search: { create: true } };
    case 'server':
      return { to: '/admin/servers/new' };
  }
};

const Checklist = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const left = overview.setup.filter((s) => !s.done).length;
  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        <Stack gap={0}>
          <Title order={2} size="h4">
            {t('admin.setup.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {left === 0 ? t('admin.setup.allDone') : t('admin.setup.left', { count: left })}
          </Text>
        </Stack>
        <List
          type="ordered"
          spacing="xs"
          listStyleType="none"
          aria-label={t('admin.setup.title')}
          styles={{
            itemWrapper: { width: '100%' },
            itemLabel: { width: '100%' },
          }}
        >
          {overview.setup.map((step, i) => (
            <List.Item
              key={step.key}
              data-done={step.done}
              icon={
                <ThemeIcon size={26} radius="xl" variant={step.done ? 'filled' : 'light'} color={step.done ? 'green' : 'gray'} aria-hidden>
                  {step.done ? (
                    <IconCheck size={16} />
                  ) : (
                    <Text size="xs" fw={700}>
                      {i + 1}
                    </Text>
                  )}
                </ThemeIcon>
              }
            >
              <Stack gap={0}>
                <Group gap="xs" wrap="wrap">
                  <Anchor fw={600} renderRoot={(props) => <Link {...props} {...stepTarget(step.key, overview.health.nodes)} />}>
                    {t(`admin.setup.steps.${step.key}.label`)}
                  </Anchor>
                  {step.done ? (
                    <Badge size="sm" color="green" variant="light" styles={TEXT_LABEL}>
                      {t('admin.setup.done')}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm" c="dimmed">
                  {t(`admin.setup.steps.${step.key}.hint`)}
                </Text>
              </Stack>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Card>
  );
};

const COUNTS = [
  { key: 'users', to: '/admin/users' },
  { key: 'nodes', to: '/admin/nodes' },
  { key: 'servers', to: '/admin/servers' },
  { key: 'eggs', to: '/admin/nests' },
  { key: 'locations', to: '/admin/locations' },
] as const;

const Counts = ({ counts }: { counts: Overview['counts'] | undefined }) => {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 3, sm: 5 }} spacing={{ base: 'xs', sm: 'md' }}>
      {COUNTS.map(({ key, to }) => (
        <Paper
          key={key}
          withBorder
          p="md"
          radius="md"
          renderRoot={(props) => <Link {...props} to={to} />}
          aria-label={counts ? t(`admin.overview.countLink.${key}`, { count: counts[key] }) : undefined}
          style={{ textDecoration: 'none', color: 'inherit' }}
        >
          <Text size="sm" c="dimmed">
            {t(`admin.overview.${key}`)}
          </Text>
          {counts ? (
            <Text fz={28} fw={700} data-testid={`count-${key}`}>
              {counts[key].toLocaleString(i18n.language)}
            </Text>
          ) : (
            <Skeleton height={32} width={60} mt={4} />
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
};

const SERVICE_COLOR = {
  up: 'green',
  down: 'red',
  'not-configured': 'gray',
} as const;
const NODE_COLOR = {
  reachable: 'green',
  waiting: 'yellow',
  unreachable: 'red',
} as const;

const HealthRow = ({ label, badge, color }: { label: string; badge: string; color: string }) => (
  <Group justify="space-between" wrap="nowrap" gap="xs" component="li">
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {label}
    </Text>
    <Badge color={color} variant="light" styles={TEXT_LABEL} style={{ flexShrink: 0 }}>
      {badge}
    </Badge>
  </Group>
);

const Health = ({ overview }: { overview: Overview }) => {
  const { t } = useTranslation();
  const { health } = overview;
  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {t('admin.health.title')}
          </Title>
          <Text size="sm" c="dimmed" data-testid="panel-version">
            {t('admin.health.version', { version: overview.version })}
          </Text>
        </Group>
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('admin.health.services')}>
          <HealthRow label={t('admin.health.database')} badge={t(`admin.health.status.${health.database.status}`)} color={SERVICE_COLOR[health.database.status]} />
          <HealthRow label={t('admin.health.mail')} badge={t(`admin.health.status.${health.mail.status}`)} color={SERVICE_COLOR[health.mail.status]} />
          <HealthRow label={t('admin.health.redis')} badge={t(`admin.health.status.${health.redis.status}`)} color={SERVICE_COLOR[health.redis.status]} />
        </Stack>
        <Title order={3} size="h5">
          {t('admin.health.nodes')}
        </Title>
        {health.nodes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('admin.health.noNodes')}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('admin.health.nodes')}>
            {health.nodes.map((node) => (
              <Group key={node.id} justify="space-between" wrap="nowrap" gap="xs" component="li">
                <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/nodes/$nid" params={{ nid: node.id }} />} style={{ overflowWrap: 'anywhere' }}>
                  {node.name}
                </Anchor>
                <Badge color={NODE_COLOR[node.status]} variant="light" styles={TEXT_LABEL} style={{ flexShrink: 0 }}>
                  {t(`admin.health.node.${node.status}`)}
                </Badge>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
};

/** The administration's start page: what is left to set up, how much the panel holds, and how its parts are. */
export const AdminOverview = () => {
  const overview = useQuery(overviewQuery());
  if (overview.isError) {
    return <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
  }
  return (
    <Stack gap="md">
      <Counts counts={overview.data?.counts} />
      {overview.data ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Checklist overview={overview.data} />
          <Health overview={overview.data} />
        </SimpleGrid>
      ) : (
        <Skeleton height={320} radius="md" />
      )}
    </Stack>
  );
};
