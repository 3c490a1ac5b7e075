import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { QueryListBody } from '@/components/QueryListBody';
import { serverMountsQuery, useSetServerMount } from '@/features/admin-mounts/api';
import { MountPaths } from '@/features/admin-mounts/components/MountsPage';
import type { AdminServer } from '@/features/admin-servers/api';
import { notify, notifyError } from '@/lib/notify';

/** The admin server page's Mounts tab: attach or detach the mounts linked to the server's egg and node. */
export const MountsTab = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  const mounts = useQuery(serverMountsQuery(server.id));
  const change = useSetServerMount(server.id);
  const toggle = (mountId: string, name: string, attach: boolean) =>
    change.mutate(
      { mountId, attach },
      {
        onSuccess: ({ meta }) =>
          notify(
            meta.daemonSynced
              ? { color: 'green', message: t(attach ? 'adminServers.mounts.attached' : 'adminServers.mounts.detached', { name }) }
              : { color: 'yellow', message: t('adminServers.mounts.notSynced', { name, reason: meta.syncError ?? '' }) },
          ),
        onError: notifyError,
      },
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('adminServers.mounts.intro')}
      </Text>
      <QueryListBody
        query={mounts}
        empty={
          <Text size="sm">
            {t('adminServers.mounts.none')}{' '}
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/mounts" />}>
              {t('adminServers.mounts.manage')}
            </Anchor>
          </Text>
        }
      >
        {(data) => (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data.map((m) => (
              <Card key={m.id} withBorder padding="sm" component="li" aria-label={m.name}>
                <Group justify="space-between" wrap="wrap" gap="sm">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/admin/mounts/$mountId" params={{ mountId: m.id }} />}>
                        {m.name}
                      </Anchor>
                      {m.attached ? (
                        <Badge color="teal" variant="light" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                          {t('adminServers.mounts.attachedBadge')}
                        </Badge>
                      ) : null}
                      {m.attached && !m.nodeLinked ? (
                        <Badge color="orange" variant="light" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                          {t('adminServers.mounts.notOnNode')}
                        </Badge>
                      ) : null}
                    </Group>
                    <MountPaths mount={m} />
                  </Stack>
                  {m.attached ? (
                    <Button variant="default" size="xs" loading={change.isPending && change.variables?.mountId === m.id} onClick={() => toggle(m.id, m.name, false)} aria-label={t('adminServers.mounts.detachOf', { name: m.name })}>
                      {t('adminServers.mounts.detach')}
                    </Button>
                  ) : (
                    <Button size="xs" loading={change.isPending && change.variables?.mountId === m.id} onClick={() => toggle(m.id, m.name, true)} aria-label={t('adminServers.mounts.attachOf', { name: m.name })}>
                      {t('adminServers.mounts.attach')}
                    </Button>
                  )}
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </QueryListBody>
      <Text size="xs" c="dimmed">
        {t('adminServers.mounts.restartHint')}
      </Text>
    </Stack>
  );
};
