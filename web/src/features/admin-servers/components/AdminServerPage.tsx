import { Anchor, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ScrollingTabList } from '@/components/ScrollingTabList';
import { ErrorState } from '@/components/ErrorState';
import { ReadOnlyNotice, ReadOnlyWhen } from '@/components/ReadOnlyWhen';
import { PageSkeleton } from '@/components/Skeletons';
import { adminServerQuery } from '@/features/admin-servers/api';
import { BuildTab } from '@/features/admin-servers/components/BuildTab';
import { DetailsTab } from '@/features/admin-servers/components/DetailsTab';
import { ManageTab } from '@/features/admin-servers/components/ManageTab';
import { MountsTab } from '@/features/admin-servers/components/MountsTab';
import { StartupTab } from '@/features/admin-servers/components/StartupTab';
import { StatusBadges } from '@/features/admin-servers/components/StatusBadge';
import { SERVER_TABS, type ServerTab } from '@/features/admin-servers/search-params';
import { useCanWrite } from '@/features/auth/admin-access';
import { ApiError } from '@/lib/api/api-error';

interface AdminServerPageProps {
  serverId: string;
  tab: ServerTab;
  onTabChange: (tab: ServerTab) => void;
  onDeleted: () => void;
}

/**
 * `/admin/servers/$sid`: one server's administration in tabs (details, build, startup, mounts, manage).
 * A caller who may only read servers (an administrator role) sees the first four with their controls
 * disabled, and no Manage tab: everything on it changes the server.
 */
export const AdminServerPage = ({ serverId, tab, onTabChange, onDeleted }: AdminServerPageProps) => {
  const { t } = useTranslation();
  const server = useQuery(adminServerQuery(serverId));
  const readOnly = !useCanWrite('servers');
  const tabs: readonly ServerTab[] = readOnly ? SERVER_TABS.filter((value) => value !== 'manage') : SERVER_TABS;
  const shown = tabs.includes(tab) ? tab : 'details';
  if (server.isError) {
    if (server.error instanceof ApiError && server.error.code === 'SERVER_NOT_FOUND') {
      return (
        <EmptyState
          title={t('adminServers.server.notFound')}
          description={t('adminServers.server.notFoundText')}
          action={<Anchor renderRoot={(props) => <Link {...props} to="/admin/servers" />}>{t('adminServers.wizard.back')}</Anchor>}
        />
      );
    }
    return <ErrorState error={server.error} onRetry={() => void server.refetch()} />;
  }
  if (!server.data) {
    return <PageSkeleton />;
  }
  const s = server.data;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/servers" />}>
          {t('adminServers.wizard.back')}
        </Anchor>
        <Group gap="sm" wrap="wrap">
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {s.name}
          </Title>
          <StatusBadges server={s} />
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('adminServers.server.subtitle', { owner: s.owner.username, node: s.node.name, identifier: s.identifier })}{' '}
          <Anchor size="sm" underline="always" renderRoot={(props) => <Link {...props} to="/server/$id" params={{ id: s.identifier }} />}>
            {t('adminServers.list.openPage')}
          </Anchor>
        </Text>
        <ReadOnlyNotice when={readOnly}>{t('adminServers.server.readOnly')}</ReadOnlyNotice>
      </Stack>
      <Tabs value={shown} onChange={(v) => v && onTabChange(v as ServerTab)} keepMounted={false}>
        {/* Five tabs overflow a phone: the bar scrolls and keeps the selected one in view. */}
        <ScrollingTabList label={t('adminServers.server.tabsLabel')} active={shown}>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`adminServers.server.tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </ScrollingTabList>
        <Tabs.Panel value="details" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <DetailsTab server={s} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        <Tabs.Panel value="build" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <BuildTab server={s} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        <Tabs.Panel value="startup" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <StartupTab server={s} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        <Tabs.Panel value="mounts" pt="md">
          <ReadOnlyWhen readOnly={readOnly}>
            <MountsTab server={s} />
          </ReadOnlyWhen>
        </Tabs.Panel>
        {readOnly ? null : (
          <Tabs.Panel value="manage" pt="md">
            <ManageTab server={s} onDeleted={onDeleted} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
};
