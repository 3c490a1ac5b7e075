import { ActionIcon, Alert, Anchor, Button, Card, Group, MultiSelect, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useQuery, type UseMutationResult } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { PageSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import {
  eggChoicesQuery,
  type MountDetail,
  mountQuery,
  nodeChoicesQuery,
  useDeleteMount,
  useLinkEggs,
  useLinkNodes,
  useUnlinkEgg,
  useUnlinkNode,
} from '@/features/admin-mounts/api';
import { MountDialog } from '@/features/admin-mounts/components/MountDialog';
import { MountPaths } from '@/features/admin-mounts/components/MountsPage';
import { ApiError } from '@/lib/api/api-error';
import { notifyError } from '@/lib/notify';
import { ReadOnlyNotice } from '@/components/ReadOnlyWhen';
import { useCanWrite } from '@/features/auth/admin-access';

type Linked = { id: string; name: string };

/** Linked eggs or nodes: each with a remove button, and a picker to link more (neither for a role that may only read mounts). */
const LinkCard = ({
  kind,
  linked,
  choices,
  link,
  unlink,
  hint,
  canWrite,
}: {
  kind: 'eggs' | 'nodes';
  linked: Linked[];
  choices: Linked[];
  link: UseMutationResult<MountDetail, unknown, string[]>;
  unlink: UseMutationResult<MountDetail, unknown, string>;
  hint?: string;
  canWrite: boolean;
}) => {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const have = new Set(linked.map((l) => l.id));
  const titleId = `mount-${kind}`;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={3} size="h4" id={titleId}>
          {t(`adminMounts.${kind}.title`)}
        </Title>
        <Text size="sm" c="dimmed">
          {t(`adminMounts.${kind}.intro`)}
        </Text>
        {linked.length === 0 ? (
          <Text size="sm">{t(`adminMounts.${kind}.none`)}</Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {linked.map((l) => (
              <Group key={l.id} component="li" justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {l.name}
                </Text>
                {canWrite ? (
                  <Tooltip label={t('adminMounts.unlink')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => unlink.mutate(l.id, { onError: notifyError })}
                      loading={unlink.isPending && unlink.variables === l.id}
                      aria-label={t('adminMounts.unlinkOf', { name: l.name })}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ) : null}
              </Group>
            ))}
          </Stack>
        )}
        {canWrite ? (
          <>
            <Group align="flex-end" gap="xs" wrap="wrap">
              <MultiSelect
                label={t(`adminMounts.${kind}.add`)}
                data={choices.filter((c) => !have.has(c.id)).map((c) => ({ value: c.id, label: c.name }))}
                value={picked}
                onChange={setPicked}
                searchable
                clearable
                style={{ flex: 1, minWidth: 200 }}
              />
              <Button
                disabled={picked.length === 0}
                loading={link.isPending}
                onClick={() => link.mutate(picked, { onSuccess: () => setPicked([]), onError: notifyError })}
              >
                {t('adminMounts.link')}
              </Button>
            </Group>
            {hint ? (
              <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} styles={{ message: { color: 'var(--mantine-color-text)' } }}>
                {hint}
              </Alert>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Card>
  );
};

/** `/admin/mounts/$mountId`: one mount, the eggs and nodes it is linked to, and the servers that have it. */
export const MountPage = ({ mountId }: { mountId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mount = useQuery(mountQuery(mountId));
  const canWrite = useCanWrite('mounts');
  // The pickers' choices, only for a role that links (one that may only read mounts may not read eggs or nodes).
  const eggs = useQuery({ ...eggChoicesQuery(), enabled: canWrite });
  const nodes = useQuery({ ...nodeChoicesQuery(), enabled: canWrite });
  const linkEggs = useLinkEggs(mountId);
  const unlinkEgg = useUnlinkEgg(mountId);
  const linkNodes = useLinkNodes(mountId);
  const unlinkNode = useUnlinkNode(mountId);
  const [editing, setEditing] = useState(false);
  const remove = useConfirmedAction({
    mutation: useDeleteMount(),
    variables: (m: MountDetail) => m.id,
    title: t('adminMounts.deleteTitle'),
    message: (m) => t('adminMounts.deleteText', { name: m.name }),
    confirmLabel: t('adminMounts.delete'),
    danger: true,
    successMessage: (m) => t('adminMounts.deleted', { name: m.name }),
    onSuccess: () => void navigate({ to: '/admin/mounts' }),
  });
  const back = (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/mounts" />}>
      {t('adminMounts.back')}
    </Anchor>
  );
  if (mount.isError) {
    if (mount.error instanceof ApiError && mount.error.code === 'MOUNT_NOT_FOUND') {
      return <EmptyState title={t('adminMounts.notFound')} description={t('adminMounts.notFoundText')} action={back} />;
    }
    return <ErrorState error={mount.error} onRetry={() => void mount.refetch()} />;
  }
  if (!mount.data) {
    return <PageSkeleton />;
  }
  const m = mount.data;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        {back}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {m.name}
          </Title>
          {canWrite ? (
            <Group gap="xs">
              <Button variant="default" onClick={() => setEditing(true)}>
                {t('adminMounts.edit')}
              </Button>
              <Button variant="light" color="red" onClick={() => remove.ask(m)}>
                {t('adminMounts.delete')}
              </Button>
            </Group>
          ) : null}
        </Group>
        {m.description ? (
          <Text size="sm" c="dimmed">
            {m.description}
          </Text>
        ) : null}
        <MountPaths mount={m} />
        <ReadOnlyNotice when={!canWrite}>{t('adminMounts.rolesReadOnly')}</ReadOnlyNotice>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <LinkCard kind="eggs" linked={m.eggs} choices={eggs.data ?? []} link={linkEggs} unlink={unlinkEgg} canWrite={canWrite} />
        <LinkCard kind="nodes" linked={m.nodes} choices={nodes.data ?? []} link={linkNodes} unlink={unlinkNode} hint={t('adminMounts.nodes.redeploy')} canWrite={canWrite} />
      </SimpleGrid>
      <Card withBorder padding="lg" component="section" aria-labelledby="mount-servers">
        <Stack gap="sm">
          <Title order={3} size="h4" id="mount-servers">
            {t('adminMounts.servers.title')}
          </Title>
          {m.servers.length === 0 ? (
            <Text size="sm">{t('adminMounts.servers.none')}</Text>
          ) : (
            <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {m.servers.map((s) => (
                <li key={s.id}>
                  <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/servers/$sid" params={{ sid: s.id }} search={{ tab: 'mounts' }} />}>
                    {s.name}
                  </Anchor>
                </li>
              ))}
            </Stack>
          )}
        </Stack>
      </Card>
      {editing ? <MountDialog mount={m} onClose={() => setEditing(false)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
