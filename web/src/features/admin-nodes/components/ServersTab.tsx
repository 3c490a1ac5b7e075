import { Button, Stack, Text } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { ListSkeleton } from '@/components/Skeletons';
import { adminServersQuery } from '@/features/admin-servers/api';
import { ServerTable } from '@/features/admin-servers/components/ServerTable';

/** A node's servers: who owns them, where they listen, what state they are in; each opens to its administration. */
export const ServersTab = ({ nodeId }: { nodeId: string }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(adminServersQuery(page, '', nodeId));
  if (list.isError) {
    return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  }
  if (!list.data) {
    return <ListSkeleton rows={3} />;
  }
  const { total, totalPages } = list.data.meta.pagination;
  if (total === 0) {
    return (
      <EmptyState
        icon={<IconServer />}
        title={t('adminNodes.servers.emptyTitle')}
        description={t('adminNodes.servers.emptyText')}
        action={
          <Button variant="light" renderRoot={(props) => <Link {...props} to="/admin/servers/new" />}>
            {t('adminNodes.servers.create')}
          </Button>
        }
      />
    );
  }
  return (
    <Stack gap="sm" aria-busy={list.isPlaceholderData || undefined} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
      <Text size="sm" c="dimmed">
        {t('adminNodes.servers.count', { count: total })}
      </Text>
      <ServerTable servers={list.data.data} page={page} totalPages={totalPages} onPageChange={setPage} showNode={false} />
    </Stack>
  );
};
