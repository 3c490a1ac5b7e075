import { Anchor, Breadcrumbs, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconEgg } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/ListPagination';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { QueryListBody } from '@/components/QueryListBody';
import { PageSkeleton } from '@/components/Skeletons';
import { nestEggsQuery, nestQuery } from '@/features/admin-eggs/api';
import { ImportEggDialog } from '@/features/admin-eggs/components/ImportEggDialog';
import { DeleteNestDialog, NestDialog } from '@/features/admin-eggs/components/NestDialogs';
import { notify } from '@/lib/notify';
import { useCanWrite } from '@/features/auth/admin-access';

/** /admin/nests/$nestId: the nest's eggs, importing more, and the nest's own edit and delete. */
export const NestPage = ({ nestId }: { nestId: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const nest = useQuery(nestQuery(nestId));
  const eggs = useQuery(nestEggsQuery(nestId, page));
  const [dialog, setDialog] = useState<'import' | 'edit' | 'delete' | null>(null);
  const canWrite = useCanWrite('eggs');

  if (nest.isPending) {
    return <PageSkeleton />;
  }
  if (nest.isError) {
    return <ErrorState error={nest.error} onRetry={() => void nest.refetch()} />;
  }
  const importButton = canWrite ? <Button onClick={() => setDialog('import')}>{t('adminEggs.import.button')}</Button> : null;

  const list = (
    <QueryListBody query={eggs} isEmpty={(data) => data.data.length === 0} empty={<EmptyState icon={<IconEgg />} title={t('adminEggs.nest.emptyTitle')} description={t('adminEggs.nest.emptyText')} action={importButton} />}>
      {(data) => {
        const { totalPages } = data.meta.pagination;
        return (
          <Stack gap="sm">
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminEggs.nest.eggs')}>
              {data.data.map((egg) => (
                <Card key={egg.id} withBorder component="li" padding="sm" aria-label={egg.name}>
                  <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/admin/eggs/$eggId" params={{ eggId: egg.id }} />} style={{ overflowWrap: 'anywhere' }}>
                    {egg.name}
                  </Anchor>
                </Card>
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
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/admin/nests" />}>
          {t('adminEggs.nests.title')}
        </Anchor>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {nest.data.name}
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" wrap="wrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {nest.data.name}
          </Title>
          {nest.data.description ? (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {nest.data.description}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('adminEggs.nest.author', { author: nest.data.author })}
          </Text>
        </Stack>
        {canWrite ? (
          <Group gap="xs">
            <Button variant="default" onClick={() => setDialog('edit')}>
              {t('adminEggs.nests.edit')}
            </Button>
            <Button variant="default" onClick={() => setDialog('delete')}>
              {t('adminEggs.nests.delete')}
            </Button>
            {importButton}
          </Group>
        ) : null}
      </Group>
      {list}
      {dialog === 'import' ? <ImportEggDialog nestId={nestId} onClose={() => setDialog(null)} onImported={(egg) => notify({ color: 'green', message: t('adminEggs.import.done', { name: egg.name }) })} /> : null}
      {dialog === 'edit' ? <NestDialog nest={nest.data} onClose={() => setDialog(null)} /> : null}
      {dialog === 'delete' ? <DeleteNestDialog nest={nest.data} eggCount={eggs.data?.meta.pagination.total} onClose={() => setDialog(null)} onDeleted={() => void navigate({ to: '/admin/nests' })} /> : null}
    </Stack>
  );
};
