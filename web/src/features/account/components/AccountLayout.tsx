import { Stack, Tabs, Text, Title } from '@mantine/core';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The account's tabs: each is a child route of /account (the profile is its index). */
const TABS = [
  { value: 'profile', to: '/account', label: 'account.tabs.profile' },
  { value: 'api-keys', to: '/account/api-keys', label: 'account.tabs.apiKeys' },
  { value: 'ssh-keys', to: '/account/ssh-keys', label: 'account.tabs.sshKeys' },
  { value: 'sessions', to: '/account/sessions', label: 'account.tabs.sessions' },
  { value: 'activity', to: '/account/activity', label: 'account.tabs.activity' },
] as const;

/** The frame of every account page: the title and the tab bar (scrollable on narrow screens). */
export const AccountLayout = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname.replace(/\/+$/, '') });
  const active = TABS.find((tab) => tab.to !== '/account' && pathname.startsWith(tab.to))?.value ?? 'profile';
  return (
    <Stack gap="md" maw={900}>
      <Stack gap={0}>
        <Title order={1} size="h2">
          {t('account.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('account.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={active}
        onChange={(value) => {
          const tab = TABS.find((x) => x.value === value);
          if (tab) {
            void navigate({ to: tab.to });
          }
        }}
        keepMounted={false}
      >
        {/* The tabs wrap onto a second line on a phone rather than hide off screen. */}
        <Tabs.List aria-label={t('account.tabs.label')}>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {t(tab.label)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
};
