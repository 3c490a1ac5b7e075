import { Button, Stack, Text } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { adminServersQuery } from '@/features/admin-servers/api';
import { ServerTable } from '@/features/admin-servers/components/ServerTable';

/** A node's servers: who owns them, where they listen, what state they are in; each opens to its administration. */
export const ServersTab = ({ nodeId }: { nodeId: string }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(adminServersQuery(page, '', nodeId));
  return (
    <QueryListBody
      query={list}
      isEmpty={(data) => data.meta.pagination.total === 0}
      empty={
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
      }
    >
      {(data) => (
        <Stack gap="sm" aria-busy={list.isPlaceholderData || undefined} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <Text size="sm" c="dimmed">
            {t('adminNodes.servers.count', { count: data.meta.pagination.total })}
          </Text>
          <ServerTable servers={data.data} page={page} totalPages={data.meta.pagination.totalPages} onPageChange={setPage} showNode={false} />
        </Stack>
      )}
    </QueryListBody>
  );
};
