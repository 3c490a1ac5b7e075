import { ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/**
 * The administration's tabs: each is a child route of /admin (the overview is its index). A page adds one
 * line here, its `value` being the path segment after /admin.
 */
const TABS = [
  { value: 'overview', to: '/admin', label: 'admin.tabs.overview' },
  { value: 'users', to: '/admin/users', label: 'admin.tabs.users' },
  { value: 'nodes', to: '/admin/nodes', label: 'admin.tabs.nodes' },
  { value: 'locations', to: '/admin/locations', label: 'admin.tabs.locations' },
  { value: 'database-hosts', to: '/admin/database-hosts', label: 'admin.tabs.databaseHosts' },
  { value: 'audit', to: '/admin/audit', label: 'admin.tabs.audit' },
] as const;

/** The tab of a path: its first segment after /admin, or the overview for /admin itself. */
const tabOf = (pathname: string): string => pathname.split('/').filter(Boolean)[1] ?? 'overview';

/** The frame of every administration page: the title and the tab bar (scrollable on narrow screens). */
export const AdminLayout = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack gap="md">
      <Stack gap={0}>
        <Title order={1} size="h2">
          {t('admin.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={tabOf(pathname)}
        onChange={(value) => {
          const tab = TABS.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to });
          }
        }}
        keepMounted={false}
      >
        <ScrollArea type="never">
          <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={t('admin.tabs.label')}>
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
