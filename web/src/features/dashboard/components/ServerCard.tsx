import { Anchor, Badge, Box, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { MUTED } from '@/features/dashboard/components/muted';
import type { LiveServerState } from '@/lib/live-status';
import { addressOf, badgesOf, usageBars, type ListedServer, type StatusTone, type StatusView, type UsageBar } from '@/features/dashboard/server-view';
import { formatBytes, formatPercent } from '@/lib/format';

const TONE_COLOR: Record<StatusTone, string> = {
  running: 'var(--mantine-color-green-6)',
  transition: 'var(--mantine-color-yellow-5)',
  offline: 'var(--mantine-color-gray-5)',
  unreachable: 'var(--mantine-color-red-6)',
  unknown: 'var(--mantine-color-gray-4)',
};

const BADGE_COLOR = { installing: 'blue', installFailed: 'red', suspended: 'orange', restoring: 'blue' } as const;

const barColor = (percent: number): string => (percent >= 90 ? 'red' : percent >= 75 ? 'orange' : 'blue');

const UsageLine = ({ bar }: { bar: UsageBar }) => {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => (bar.key === 'cpu' ? formatPercent(n, i18n.language) : formatBytes(n, i18n.language));
  const what = t(`dashboard.usage.${bar.key}`);
  const value = bar.limit === null ? t('dashboard.usage.noLimit', { used: fmt(bar.used) }) : t('dashboard.usage.of', { used: fmt(bar.used), limit: fmt(bar.limit) });
  return (
    <Box>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" c={MUTED}>
          {what}
        </Text>
        <Text size="xs" ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {value}
        </Text>
      </Group>
      <Progress.Root size="sm" mt={4} aria-hidden={bar.percent === null ? true : undefined}>
        {bar.percent === null ? null : (
          <Progress.Section value={bar.percent} color={barColor(bar.percent)} aria-label={t('dashboard.usage.barLabel', { what, value })} />
        )}
      </Progress.Root>
    </Box>
  );
};

interface ServerCardProps {
  server: ListedServer;
  live: LiveServerState | undefined;
  status: StatusView;
  /**
   * Whose server it is: the caller's own (no owner shown); one shared with the caller ("Shared by"
   * badge); or, in an administrator's list of every server, someone else's ("Owner:").
   */
  owner: 'self' | 'sharer' | 'other';
}

/** One server: name (a link to its console), address, node, live status, use against limits, badges. */
export const ServerCard = ({ server, live, status, owner }: ServerCardProps) => {
  const { t } = useTranslation();
  const address = addressOf(server);
  const badges = badgesOf(server, live);
  const titleId = `server-${server.id}-name`;
  const bars = live?.kind === 'live' && live.resources ? usageBars(server.limits, live.resources) : null;
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={titleId} style={{ minWidth: 0 }}>
      <Stack gap="xs">
        {/* The console page: `{server}` takes the identifier (docs/api.md). */}
        <Anchor
          renderRoot={(props) => <Link {...props} to="/$" params={{ _splat: `server/${server.identifier}` }} />}
          id={titleId}
          c="var(--mantine-color-text)"
          underline="always"
          fw={600}
          size="lg"
          style={{ overflowWrap: 'anywhere' }}
        >
          {server.name}
        </Anchor>
        <Group gap={6} wrap="nowrap" data-status={status.key}>
          <Box w={10} h={10} style={{ borderRadius: '50%', background: TONE_COLOR[status.tone], flexShrink: 0 }} aria-hidden />
          <Text size="sm" fw={500}>
            {t(`dashboard.status.${status.key}`)}
          </Text>
        </Group>
        <Text size="sm" c={MUTED} style={{ overflowWrap: 'anywhere' }}>
          <span>{address ?? t('dashboard.noAddress')}</span>
          {' · '}
          <span>{server.node.name}</span>
          {owner === 'other' ? (
            <>
              {' · '}
              <span>{t('dashboard.owner', { name: server.owner.username })}</span>
            </>
          ) : null}
        </Text>
        {badges.length > 0 || owner === 'sharer' ? (
          <Group gap={6}>
            {owner === 'sharer' ? (
              <Badge
                color="grape"
                variant="light"
                leftSection={<IconUsers size={12} aria-hidden />}
                tt="none"
                styles={{ label: { color: 'var(--mantine-color-text)', overflow: 'hidden', textOverflow: 'ellipsis' } }}
                aria-label={t('dashboard.sharedByLabel', { name: server.owner.username })}
                maw="100%"
              >
                {t('dashboard.sharedBy', { name: server.owner.username })}
              </Badge>
            ) : null}
            {badges.map((b) => (
              <Badge key={b} color={BADGE_COLOR[b]} variant="light">
                {t(`dashboard.badge.${b}`)}
              </Badge>
            ))}
          </Group>
        ) : null}
        {bars ? (
          <Stack gap={6} aria-label={t('dashboard.usage.label')} role="group">
            {bars.map((bar) => (
              <UsageLine key={bar.key} bar={bar} />
            ))}
          </Stack>
        ) : (
          <Text size="xs" c={MUTED}>
            {live?.kind === 'unreachable' ? t('dashboard.usage.unreachable') : t('dashboard.usage.noData')}
          </Text>
        )}
      </Stack>
    </Card>
  );
};
