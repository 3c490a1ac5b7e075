import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconShieldLock, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type NodeChoice, type Role, roleNodeChoicesQuery, rolesQuery, useDeleteRole } from '@/features/admin-roles/api';
import { RoleDialog } from '@/features/admin-roles/components/RoleDialog';

/** What a role grants in a line: the areas it may change, then those it may only read. */
const RoleGrants = ({ role }: { role: Pick<Role, 'permissions'> }) => {
  const { t } = useTranslation();
  const names = (access: 'read' | 'write') => role.permissions.filter((p) => p.access === access).map((p) => t(`adminRoles.areas.${p.area}`));
  const write = names('write');
  const read = names('read');
  if (write.length === 0 && read.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('adminRoles.grantsNothing')}
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      {write.length > 0 ? <Text size="sm">{t('adminRoles.grantsWrite', { areas: write.join(', ') })}</Text> : null}
      {read.length > 0 ? <Text size="sm">{t('adminRoles.grantsRead', { areas: read.join(', ') })}</Text> : null}
    </Stack>
  );
};

/** The nodes a role reaches: every node, or their names (a deleted node's id). */
const roleNodes = (role: Role, nodes: NodeChoice[] | undefined, t: (key: 'adminRoles.allNodes' | 'adminRoles.noNodeLeft') => string): string => {
  if (role.allNodes) {
    return t('adminRoles.allNodes');
  }
  if (role.nodeIds.length === 0) {
    return t('adminRoles.noNodeLeft');
  }
  return role.nodeIds.map((id) => nodes?.find((n) => n.id === id)?.name ?? `#${id}`).join(', ');
};

/** /admin/roles (full administrators only): parts of the administration to give to other users. */
export const RolesPage = () => {
  const { t } = useTranslation();
  const list = useQuery(rolesQuery());
  const nodes = useQuery(roleNodeChoicesQuery());
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const remove = useConfirmedAction({
    mutation: useDeleteRole(),
    variables: (r: Role) => r.id,
    title: t('adminRoles.deleteTitle'),
    message: (r) => t('adminRoles.deleteText', { name: r.name, count: r.users }),
    confirmLabel: t('adminRoles.delete'),
    danger: true,
    successMessage: (r) => t('adminRoles.deleted', { name: r.name }),
  });
  const newButton = <Button onClick={() => setEditing('new')}>{t('adminRoles.create')}</Button>;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminRoles.title')}
        </Title>
        {list.data && list.data.length > 0 ? newButton : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('adminRoles.intro')}
      </Text>
      <QueryListBody query={list} empty={<EmptyState icon={<IconShieldLock />} title={t('adminRoles.emptyTitle')} description={t('adminRoles.emptyText')} action={newButton} />}>
        {(roles) => (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {roles.map((role) => (
              <Card key={role.id} withBorder padding="sm" component="li" aria-label={role.name}>
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {role.name}
                      </Text>
                      <Badge variant="light" color="gray" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
                        {t('adminRoles.holders', { count: role.users })}
                      </Badge>
                    </Group>
                    <RoleGrants role={role} />
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {t('adminRoles.nodesLine', { nodes: roleNodes(role, nodes.data, t) })}
                    </Text>
                  </Stack>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={t('adminRoles.edit')}>
                      <ActionIcon variant="subtle" size="lg" onClick={() => setEditing(role)} aria-label={t('adminRoles.editOf', { name: role.name })}>
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('adminRoles.delete')}>
                      <ActionIcon variant="subtle" color="red" size="lg" onClick={() => remove.ask(role)} aria-label={t('adminRoles.deleteOf', { name: role.name })}>
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </QueryListBody>
      {editing ? <RoleDialog role={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {remove.dialog}
    </Stack>
  );
};
