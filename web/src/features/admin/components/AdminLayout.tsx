import { Stack, Tabs, Text, Title } from '@mantine/core';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ScrollingTabList } from '@/components/ScrollingTabList';
import { type AdminAccess, type AdminArea, useAdminAccess } from '@/features/auth/admin-access';

/**
 * The administration's tabs: each is a child route of /admin (the overview is its index). A page adds one
 * line here, its `value` being the path segment after /admin, and what the caller needs to see it: the
 * area it reads, or `any` (every administrator) or `full` (full administrators only).
 */
const TABS = [
  { value: 'overview', to: '/admin', label: 'admin.tabs.overview', needs: 'overview' },
  { value: 'servers', to: '/admin/servers', label: 'admin.tabs.servers', needs: 'servers' },
  { value: 'users', to: '/admin/users', label: 'admin.tabs.users', needs: 'users' },
  { value: 'nodes', to: '/admin/nodes', label: 'admin.tabs.nodes', needs: 'nodes' },
  { value: 'nests', to: '/admin/nests', label: 'admin.tabs.nests', needs: 'eggs' },
  { value: 'locations', to: '/admin/locations', label: 'admin.tabs.locations', needs: 'locations' },
  { value: 'mounts', to: '/admin/mounts', label: 'admin.tabs.mounts', needs: 'mounts' },
  { value: 'database-hosts', to: '/admin/database-hosts', label: 'admin.tabs.databaseHosts', needs: 'database_hosts' },
  { value: 'backup-hosts', to: '/admin/backup-hosts', label: 'admin.tabs.backupHosts', needs: 'backup_hosts' },
  { value: 'webhooks', to: '/admin/webhooks', label: 'admin.tabs.webhooks', needs: 'webhooks' },
  { value: 'auth-providers', to: '/admin/auth-providers', label: 'admin.tabs.authProviders', needs: 'settings' },
  { value: 'application-keys', to: '/admin/application-keys', label: 'admin.tabs.applicationKeys', needs: 'any' },
  { value: 'roles', to: '/admin/roles', label: 'admin.tabs.roles', needs: 'full' },
  { value: 'settings', to: '/admin/settings', label: 'admin.tabs.settings', needs: 'settings' },
  { value: 'audit', to: '/admin/audit', label: 'admin.tabs.audit', needs: 'audit' },
] as const satisfies readonly { value: string; to: string; label: string; needs: AdminArea | 'overview' | 'any' | 'full' }[];

type Tab = (typeof TABS)[number];

/**
 * The tabs the caller may open: what it cannot read is not shown. The overview counts every node and
 * server, so it needs the nodes area on every node (a node-limited role is refused it).
 */
const visibleTabs = (access: AdminAccess): Tab[] =>
  TABS.filter(({ needs }) => {
    if (needs === 'any') {
      return access.any;
    }
    if (needs === 'full') {
      return access.full;
    }
    if (needs === 'overview') {
      return access.can('nodes', 'read') && access.everyNode('nodes');
    }
    return access.can(needs, 'read');
  });

/** Where /admin sends a caller without the overview: its first tab (null: it has none). */
export const firstAdminPath = (access: AdminAccess): Tab['to'] | null => visibleTabs(access)[0]?.to ?? null;

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
  const tabs = visibleTabs(useAdminAccess());
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
          const tab = tabs.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to });
          }
        }}
        keepMounted={false}
      >
        <ScrollingTabList label={t('admin.tabs.label')} active={tabOf(pathname)}>
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
