import { AppShell, Avatar, Burger, Group, Menu, NavLink, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { NAV_ITEMS } from '@/app/nav';
import { ThemeMenu } from '@/components/ThemeMenu';
import { useAdminAccess } from '@/features/auth/admin-access';
import { useSignOut, type SessionUser } from '@/features/auth/api';
import { notifyError } from '@/lib/notify';

const SignedInMenu = ({ user }: { user: SessionUser }) => {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const name = user.name || user.username;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* Named by its text, not an aria-label that the initials shown would not be part of (WCAG 2.5.3, label in name):
            the initials are a picture of the account, hidden from assistive technology like any decorative image. */}
        <UnstyledButton>
          {/* Shade 8 in both schemes: white initials on it pass WCAG AA (5.2:1); the dark scheme's primary shade 6 does not. */}
          <Avatar color="hatch.8" variant="filled" radius="xl" size={34} aria-hidden>
            {name.slice(0, 2).toUpperCase()}
          </Avatar>
          <VisuallyHidden>{t('user.menu', { name })}</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {name}
          </Text>
          <Text size="xs">{user.email}</Text>
          {user.admin ? <Text size="xs">{t('user.admin')}</Text> : null}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={16} aria-hidden />}>
          {t('user.account')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() =>
            signOut.mutate(undefined, {
              onError: (error) => notifyError(error),
            })
          }
        >
          {t('user.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
};

/** The signed-in frame: header, navigation (a drawer under 768 px) and the page. */
export const AppLayout = ({ user }: { user: SessionUser }) => {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Under the breakpoint the closed navigation is a drawer off screen: keep it out of the tab order too.
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const adminAccess = useAdminAccess();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? t('app.closeNavigation') : t('app.openNavigation')} />
            <Text component={Link} to="/" fw={700} size="lg" c="var(--mantine-color-text)" td="none">
              {t('app.name')}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ThemeMenu />
            <SignedInMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" component="nav" aria-label={t('app.mainNavigation')} inert={narrow && !opened}>
        {NAV_ITEMS.filter((item) => !item.admin || adminAccess.any).map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.label)}
            leftSection={<item.icon size={18} aria-hidden />}
            active={item.to === '/' ? pathname === '/' : pathname.startsWith(item.to)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
};
