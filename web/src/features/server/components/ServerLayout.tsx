import { Alert, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconTransfer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ScrollingTabList } from '@/components/ScrollingTabList';
import { ErrorState } from '@/components/ErrorState';
import { PageSkeleton } from '@/components/Skeletons';
import { serverQuery } from '@/features/server/api';

/**
 * The server's tabs: each is a child route of /server/$id (the console is its index), shown when the
 * caller holds its permission (`permissions` of the server details; owners and admins hold them all).
 * A page adds one line here, its `value` being the path segment after /server/$id; a list of
 * permissions shows the tab to whoever holds any of them.
 */
const TABS = [
  { value: 'console', to: '/server/$id', label: 'server.tabs.console', permission: 'websocket.connect' },
  { value: 'files', to: '/server/$id/files', label: 'server.tabs.files', permission: 'server.files.read' },
  { value: 'databases', to: '/server/$id/databases', label: 'server.tabs.databases', permission: 'server.database.read' },
  { value: 'schedules', to: '/server/$id/schedules', label: 'server.tabs.schedules', permission: 'server.schedule.read' },
  { value: 'users', to: '/server/$id/users', label: 'server.tabs.users', permission: 'server.subuser.read' },
  { value: 'backups', to: '/server/$id/backups', label: 'server.tabs.backups', permission: 'server.backup.read' },
  { value: 'network', to: '/server/$id/network', label: 'server.tabs.network', permission: 'server.allocation.read' },
  { value: 'startup', to: '/server/$id/startup', label: 'server.tabs.startup', permission: 'server.startup.read' },
  { value: 'settings', to: '/server/$id/settings', label: 'server.tabs.settings', permission: ['server.settings.rename', 'server.settings.reinstall', 'server.files.sftp'] },
  { value: 'activity', to: '/server/$id/activity', label: 'server.tabs.activity', permission: 'server.activity.read' },
  { value: 'webhooks', to: '/server/$id/webhooks', label: 'server.tabs.webhooks', permission: 'server.webhook' },
] as const;

/** The tab of a path: its first segment after /server/<id>, or the console for the server's own page. */
const tabOf = (pathname: string): string => pathname.split('/').filter(Boolean)[2] ?? 'console';

/** The frame of every server page: name, node and the tab bar (a scrollable bar on narrow screens). */
export const ServerLayout = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const server = useQuery(serverQuery(serverId));
  if (server.isPending) {
    return <PageSkeleton />;
  }
  if (server.isError) {
    return <ErrorState error={server.error} onRetry={() => void server.refetch()} />;
  }
  const active = tabOf(pathname);
  const granted = new Set(server.data.permissions);
  const tabs = TABS.filter((tab) => ([] as string[]).concat(tab.permission).some((p) => granted.has(p)));
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {server.data.name}
          </Title>
          <Text size="sm" c="dimmed">
            {t('server.node', { name: server.data.node.name })}
          </Text>
        </Stack>
        {server.data.suspended ? <Badge color="red">{t('server.suspendedBadge')}</Badge> : null}
      </Group>
      {server.data.transferring ? (
        <Alert color="blue" variant="light" icon={<IconTransfer aria-hidden />} title={t('server.transferringTitle')} role="status">
          {t('server.transferringText')}
        </Alert>
      ) : null}
      <Tabs
        value={active}
        onChange={(value) => {
          const tab = tabs.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to, params: { id: serverId } });
          }
        }}
        keepMounted={false}
      >
        <ScrollingTabList label={t('server.tabs.label')} active={active}>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {t(tab.label)}
            </Tabs.Tab>
          ))}
        </ScrollingTabList>
      </Tabs>
      <Outlet />
    </Stack>
  );
};
