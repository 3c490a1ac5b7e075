import { Group, ScrollArea, Tabs } from '@mantine/core';
import { createFileRoute, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

// The server pages' frame: a tab bar over the page. Minimal here (the files tab); the console
// branch brings the full layout with the server's name, status and the other tabs.
export const Route = createFileRoute('/_app/server/$id')({
  component: function ServerLayout() {
    const { id } = Route.useParams();
    const { t } = useTranslation();
    const pathname = useRouterState({ select: (s) => s.location.pathname });
    const tab = pathname.includes('/files') ? 'files' : 'console';
    return (
      <>
        <ScrollArea type="never" mb="md">
          <Tabs value={tab} component="nav" aria-label={t('server.tabs')}>
            <Tabs.List>
              <Group gap={0} wrap="nowrap">
                <Tabs.Tab value="console" renderRoot={(props) => <Link {...props} to="/server/$id" params={{ id }} />}>
                  {t('server.tab.console')}
                </Tabs.Tab>
                <Tabs.Tab value="files" renderRoot={(props) => <Link {...props} to="/server/$id/files" params={{ id }} search={{}} />}>
                  {t('server.tab.files')}
                </Tabs.Tab>
              </Group>
            </Tabs.List>
          </Tabs>
        </ScrollArea>
        <Outlet />
      </>
    );
  },
});
