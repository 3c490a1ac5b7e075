import { Anchor, Button, Card, Group, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDotsVertical, IconEgg } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/ListPagination';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { eggCountQuery, type Nest, nestsQuery } from '@/features/admin-eggs/api';
import { DeleteNestDialog, NestDialog } from '@/features/admin-eggs/components/NestDialogs';
import { useCanWrite } from '@/features/auth/admin-access';

const EggCount = ({ nestId }: { nestId: string }) => {
  const { t } = useTranslation();
  const count = useQuery(eggCountQuery(nestId));
  if (count.isPending) {
    return <Skeleton height={14} width={50} />;
  }
  return (
    <Text size="sm" c="dimmed" data-testid="egg-count">
      {count.isError ? t('adminEggs.nests.countUnknown') : t('adminEggs.nests.eggCount', { count: count.data })}
    </Text>
  );
};

/** A nest; its actions menu only for those who may change nests (`onEdit`, `onDelete` given). */
const NestRow = ({ nest, onEdit, onDelete }: { nest: Nest; onEdit?: () => void; onDelete?: () => void }) => {
  const { t } = useTranslation();
  return (
    <Card withBorder component="li" padding="sm" aria-label={nest.name}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/admin/nests/$nestId" params={{ nestId: nest.id }} />} style={{ overflowWrap: 'anywhere' }}>
            {nest.name}
          </Anchor>
          {nest.description ? (
            <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {nest.description}
            </Text>
          ) : null}
          <EggCount nestId={nest.id} />
        </Stack>
        {onEdit && onDelete ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="xs" style={{ flexShrink: 0 }} rightSection={<IconDotsVertical size={14} aria-hidden />} aria-label={t('adminEggs.nests.actionsOf', { name: nest.name })}>
              {t('adminEggs.actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={onEdit}>{t('adminEggs.nests.edit')}</Menu.Item>
            <Menu.Item color="red" onClick={onDelete}>
              {t('adminEggs.nests.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        ) : null}
      </Group>
    </Card>
  );
};

/** /admin/nests: the nests with how many eggs each holds; create, edit, delete. */
export const NestsPage = () => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(nestsQuery(page));
  const [creating, setCreating] = useState(false);
  const canWrite = useCanWrite('eggs');
  const [editing, setEditing] = useState<Nest | null>(null);
  const [deleting, setDeleting] = useState<Nest | null>(null);
  const deletingCount = useQuery({ ...eggCountQuery(deleting?.id ?? ''), enabled: deleting !== null });

  const header = (
    <Group justify="space-between" wrap="wrap">
      <Stack gap={0}>
        <Title order={2} size="h3">
          {t('adminEggs.nests.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adminEggs.nests.subtitle')}
        </Text>
      </Stack>
      <Group gap="xs">
        <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/eggs/gallery" />}>
          {t('adminEggs.gallery.open')}
        </Button>
        {canWrite ? <Button onClick={() => setCreating(true)}>{t('adminEggs.nests.create')}</Button> : null}
      </Group>
    </Group>
  );

  const body = (
    <QueryListBody query={list} isEmpty={(data) => data.data.length === 0} empty={<EmptyState icon={<IconEgg />} title={t('adminEggs.nests.emptyTitle')} description={t('adminEggs.nests.emptyText')} />}>
      {(data) => {
        const { totalPages } = data.meta.pagination;
        return (
          <Stack gap="sm">
            <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.nests.title')}>
              {data.data.map((nest) => (
                <NestRow key={nest.id} nest={nest} onEdit={canWrite ? () => setEditing(nest) : undefined} onDelete={canWrite ? () => setDeleting(nest) : undefined} />
              ))}
            </Stack>
            <ListPagination total={totalPages} value={page} onChange={setPage} label={t('adminEggs.pages')} />
          </Stack>
        );
      }}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      {header}
      {body}
      {creating ? <NestDialog onClose={() => setCreating(false)} /> : null}
      {editing ? <NestDialog nest={editing} onClose={() => setEditing(null)} /> : null}
      {deleting && !deletingCount.isPending ? <DeleteNestDialog nest={deleting} eggCount={deletingCount.data} onClose={() => setDeleting(null)} /> : null}
    </Stack>
  );
};
