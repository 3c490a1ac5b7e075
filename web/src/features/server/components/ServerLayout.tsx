import { Badge, Group, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { PageSkeleton } from '@/components/Skeletons';
import { serverQuery } from '@/features/server/api';

/** The server's tabs: each is a child route of /server/$id (the console is its index). */
const TABS = [
  { value: 'console', to: '/server/$id', label: 'server.tabs.console' },
  { value: 'files', to: '/server/$id/files', label: 'server.tabs.files' },
] as const;

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
  const active = pathname.replace(/\/+$/, '').endsWith('/files') || pathname.includes('/files/') ? 'files' : 'console';
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
      <Tabs
        value={active}
        onChange={(value) => {
          const tab = TABS.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to, params: { id: serverId } });
          }
        }}
        keepMounted={false}
      >
        <ScrollArea type="never">
          <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={t('server.tabs.label')}>
            {TABS.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {t(tab.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </ScrollArea>
      </Tabs>
      <Outlet />
    </Stack>
  );
};
