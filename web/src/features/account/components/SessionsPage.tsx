import { Badge, Button, Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconLogout } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { sessionsQuery, useRevokeOtherSessions, useRevokeSession, type AccountSession } from '@/features/account/api';
import { describeUserAgent } from '@/features/account/user-agent';
import { formatDateTime, formatRelativeSeconds } from '@/lib/format';

const useDeviceName = () => {
  const { t } = useTranslation();
  return (userAgent: string | null): string => {
    const { browser, os } = describeUserAgent(userAgent);
    if (browser && os) {
      return t('account.sessions.browserOn', { browser, os });
    }
    return browser ?? os ?? t('account.sessions.unknownDevice');
  };
};

const SessionItem = ({ session, onRevoke }: { session: AccountSession; onRevoke: () => void }) => {
  const { t, i18n } = useTranslation();
  const deviceName = useDeviceName();
  const lastSeen = formatRelativeSeconds((new Date(session.lastSeenAt).getTime() - Date.now()) / 1000, i18n.language);
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-session={session.id}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{deviceName(session.userAgent)}</Text>
            {session.current ? (
              <Badge color="teal.9" variant="filled">
                {t('account.sessions.current')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm">{t('account.sessions.ip', { ip: session.ip ?? t('account.sessions.unknownIp') })}</Text>
          <Text size="sm" c="dimmed">
            {t('account.sessions.signedIn', { date: formatDateTime(session.createdAt, i18n.language) })}
            {' · '}
            {t('account.sessions.lastSeen', { when: lastSeen })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('account.sessions.expires', { date: formatDateTime(session.expiresAt, i18n.language) })}
          </Text>
        </Stack>
        {session.current ? null : (
          <Button variant="default" color="red" size="xs" leftSection={<IconLogout size={14} aria-hidden />} onClick={onRevoke} aria-label={t('account.sessions.revokeNamed', { device: deviceName(session.userAgent), ip: session.ip ?? '' })}>
            {t('account.sessions.revoke')}
          </Button>
        )}
      </Group>
    </Paper>
  );
};

/** `/account/sessions`: where and when the user is signed in; end one session or all the others. */
export const SessionsPage = () => {
  const { t } = useTranslation();
  const sessions = useQuery(sessionsQuery);
  const deviceName = useDeviceName();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  const revoke = useConfirmedAction({
    mutation: useRevokeSession(),
    variables: (session: AccountSession) => session.id,
    title: t('account.sessions.revokeTitle'),
    message: (session) => t('account.sessions.revokeText', { device: deviceName(session.userAgent), ip: session.ip ?? t('account.sessions.unknownIp') }),
    confirmLabel: t('account.sessions.revoke'),
    danger: true,
  });
  const revokeOthers = useConfirmedAction({
    mutation: useRevokeOtherSessions(),
    variables: () => undefined,
    title: t('account.sessions.revokeOthersTitle'),
    message: () => t('account.sessions.revokeOthersText', { count: others }),
    confirmLabel: t('account.sessions.revokeOthers'),
    danger: true,
  });

  const list = (
    <QueryListBody query={sessions} errorTitle={t('account.sessions.loadError')} empty={<EmptyState icon={<IconDeviceDesktop />} title={t('account.sessions.emptyTitle')} description={t('account.sessions.emptyText')} />}>
      {(data) => {
        // This session first, then the most recently seen.
        const sorted = [...data].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
        return (
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('account.sessions.title')}>
            {sorted.map((session) => (
              <SessionItem key={session.id} session={session} onRevoke={() => revoke.ask(session)} />
            ))}
          </Stack>
        );
      }}
    </QueryListBody>
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="account-sessions">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
        <Stack gap={0} style={{ flex: '1 1 240px' }}>
          <Title order={2} size="h4" id="account-sessions">
            {t('account.sessions.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('account.sessions.text')}
          </Text>
        </Stack>
        {others > 0 ? (
          <Button variant="light" color="red" onClick={() => revokeOthers.ask(true)}>
            {t('account.sessions.revokeOthers')}
          </Button>
        ) : null}
      </Group>
      {list}
      {revoke.dialog}
      {revokeOthers.dialog}
    </Card>
  );
};
