import { Stack, Tabs, Text, Title } from '@mantine/core';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ScrollingTabList } from '@/components/ScrollingTabList';

/**
 * The administration's tabs: each is a child route of /admin (the overview is its index). A page adds one
 * line here, its `value` being the path segment after /admin.
 */
const TABS = [
  { value: 'overview', to: '/admin', label: 'admin.tabs.overview' },
  { value: 'servers', to: '/admin/servers', label: 'admin.tabs.servers' },
  { value: 'users', to: '/admin/users', label: 'admin.tabs.users' },
  { value: 'nodes', to: '/admin/nodes', label: 'admin.tabs.nodes' },
  { value: 'nests', to: '/admin/nests', label: 'admin.tabs.nests' },
  { value: 'locations', to: '/admin/locations', label: 'admin.tabs.locations' },
  { value: 'mounts', to: '/admin/mounts', label: 'admin.tabs.mounts' },
  { value: 'database-hosts', to: '/admin/database-hosts', label: 'admin.tabs.databaseHosts' },
  { value: 'backup-hosts', to: '/admin/backup-hosts', label: 'admin.tabs.backupHosts' },
  { value: 'webhooks', to: '/admin/webhooks', label: 'admin.tabs.webhooks' },
  { value: 'auth-providers', to: '/admin/auth-providers', label: 'admin.tabs.authProviders' },
  { value: 'application-keys', to: '/admin/application-keys', label: 'admin.tabs.applicationKeys' },
  { value: 'settings', to: '/admin/settings', label: 'admin.tabs.settings' },
  { value: 'audit', to: '/admin/audit', label: 'admin.tabs.audit' },
] as const;

/** Pages under another tab's wing: an egg (/admin/eggs/$eggId) belongs to the nests tab. */
const TAB_OF_SEGMENT: Record<string, string> = { eggs: 'nests' };

/** The tab of a path: its first segment after /admin, or the overview for /admin itself. */
const tabOf = (pathname: string): string => {
  const segment = pathname.split('/').filter(Boolean)[1] ?? 'overview';
  return TAB_OF_SEGMENT[segment] ?? segment;
};

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
        <ScrollingTabList label={t('admin.tabs.label')} active={tabOf(pathname)}>
          {TABS.map((tab) => (
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
