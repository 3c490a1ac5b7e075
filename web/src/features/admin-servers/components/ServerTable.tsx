import { Anchor, Box, Card, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { AdminServer } from '@/features/admin-servers/api';
import { StatusBadges } from '@/features/admin-servers/components/StatusBadge';

const addressOf = (s: AdminServer): string => (s.allocations.primary ? `${s.allocations.primary.ip}:${s.allocations.primary.port}` : '–');

/** The two ways into a server: its administration and the page its owner sees. */
const ServerLinks = ({ server }: { server: AdminServer }) => {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap">
      <Anchor renderRoot={(props) => <Link {...props} to="/admin/servers/$sid" params={{ sid: server.id }} />} fw={600} style={{ overflowWrap: 'anywhere' }}>
        {server.name}
      </Anchor>
      <Anchor renderRoot={(props) => <Link {...props} to="/server/$id" params={{ id: server.identifier }} />} size="sm" aria-label={t('adminServers.list.openPageOf', { name: server.name })}>
        {t('adminServers.list.openPage')}
      </Anchor>
    </Group>
  );
};

interface ServerTableProps {
  servers: AdminServer[];
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  /** Off on a node's page, where every server is on that node. */
  showNode?: boolean;
}

/** One page of servers for administrators: a table on wide screens, cards on narrow ones, and the pages below. */
export const ServerTable = ({ servers, page, totalPages, onPageChange, showNode = true }: ServerTableProps) => {
  const { t } = useTranslation();
  return (
    <>
      <Table visibleFrom="sm" striped highlightOnHover verticalSpacing="sm" aria-label={t('adminServers.list.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminServers.list.name')}</Table.Th>
            <Table.Th>{t('adminServers.list.owner')}</Table.Th>
            {showNode ? <Table.Th>{t('adminServers.list.node')}</Table.Th> : null}
            <Table.Th>{t('adminServers.list.address')}</Table.Th>
            <Table.Th>{t('adminServers.list.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {servers.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <ServerLinks server={s} />
              </Table.Td>
              <Table.Td>{s.owner.username}</Table.Td>
              {showNode ? <Table.Td>{s.node.name}</Table.Td> : null}
              <Table.Td ff="monospace">{addressOf(s)}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <StatusBadges server={s} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap="sm" hiddenFrom="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('adminServers.list.tableLabel')}>
        {servers.map((s) => (
          <Card key={s.id} withBorder padding="sm" component="li">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Box style={{ flex: 1, minWidth: 0 }}>
                <ServerLinks server={s} />
              </Box>
              <Group gap={4} justify="flex-end" style={{ flexShrink: 0 }}>
                <StatusBadges server={s} />
              </Group>
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {showNode
                ? t('adminServers.list.cardLine', { owner: s.owner.username, node: s.node.name, address: addressOf(s) })
                : t('adminServers.list.cardLineOnNode', { owner: s.owner.username, address: addressOf(s) })}
            </Text>
          </Card>
        ))}
      </Stack>
      {totalPages > 1 ? (
        <Group justify="center" component="nav" aria-label={t('adminServers.list.pagination')}>
          <Pagination
            total={totalPages}
            value={Math.min(page, totalPages)}
            onChange={onPageChange}
            getItemProps={(p) => ({ 'aria-label': t('adminServers.list.page', { page: p }) })}
            getControlProps={(control) => ({ 'aria-label': t(`adminServers.list.${control}Page`) })}
            size="sm"
          />
        </Group>
      ) : null}
    </>
  );
};
