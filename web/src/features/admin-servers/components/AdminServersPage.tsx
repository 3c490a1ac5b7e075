import { Anchor, Box, Button, Card, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch, IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { ListSkeleton } from '@/components/Skeletons';
import { type AdminServer, adminServersQuery } from '@/features/admin-servers/api';
import { StatusBadges } from '@/features/admin-servers/components/StatusBadge';
import type { AdminServersSearch } from '@/features/admin-servers/search-params';

const SEARCH_DEBOUNCE_MS = 300;

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

interface AdminServersPageProps {
  search: AdminServersSearch;
  onSearchChange: (next: AdminServersSearch) => void;
}

/** `/admin/servers`: every server of the panel, searchable and paged (both kept in the URL). */
export const AdminServersPage = ({ search, onSearchChange }: AdminServersPageProps) => {
  const { t } = useTranslation();
  const page = search.page ?? 1;
  const query = search.q ?? '';
  const list = useQuery(adminServersQuery(page, query));

  const [draft, setDraft] = useState(query);
  const sent = useRef(query);
  useEffect(() => {
    if (query !== sent.current) {
      sent.current = query;
      setDraft(query); // Back/forward changed the URL
    }
  }, [query]);
  const sendQuery = useDebouncedCallback((value: string) => {
    sent.current = value.trim();
    onSearchChange({ q: value.trim() || undefined });
  }, SEARCH_DEBOUNCE_MS);

  const createButton = (
    <Button renderRoot={(props) => <Link {...props} to="/admin/servers/new" />} leftSection={<IconPlus size={16} aria-hidden />}>
      {t('adminServers.list.create')}
    </Button>
  );

  const content = (() => {
    if (list.isError) {
      return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
    }
    if (!list.data) {
      return <ListSkeleton rows={4} />;
    }
    const { total, totalPages } = list.data.meta.pagination;
    if (total === 0) {
      return query ? (
        <EmptyState
          icon={<IconSearch />}
          title={t('adminServers.list.noMatchTitle', { query })}
          description={t('adminServers.list.noMatchText')}
          action={
            <Button
              variant="light"
              onClick={() => {
                setDraft('');
                sent.current = '';
                onSearchChange({});
              }}
            >
              {t('adminServers.list.clearSearch')}
            </Button>
          }
        />
      ) : (
        <EmptyState
          icon={<IconServer />}
          title={t('adminServers.list.emptyTitle')}
          description={t('adminServers.list.emptyText')}
          action={
            <Button variant="light" renderRoot={(props) => <Link {...props} to="/admin/servers/new" />}>
              {t('adminServers.list.createFirst')}
            </Button>
          }
        />
      );
    }
    const servers = list.data.data;
    return (
      <Stack gap="sm" aria-busy={list.isPlaceholderData || undefined} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
        <Text size="sm" c="dimmed">
          {query ? t('adminServers.list.matches', { count: total, query }) : t('adminServers.list.count', { count: total })}
        </Text>
        <Table visibleFrom="sm" striped highlightOnHover verticalSpacing="sm" aria-label={t('adminServers.list.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('adminServers.list.name')}</Table.Th>
              <Table.Th>{t('adminServers.list.owner')}</Table.Th>
              <Table.Th>{t('adminServers.list.node')}</Table.Th>
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
                <Table.Td>{s.node.name}</Table.Td>
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
                {t('adminServers.list.cardLine', { owner: s.owner.username, node: s.node.name, address: addressOf(s) })}
              </Text>
            </Card>
          ))}
        </Stack>
        {totalPages > 1 ? (
          <Group justify="center" component="nav" aria-label={t('adminServers.list.pagination')}>
            <Pagination
              total={totalPages}
              value={Math.min(page, totalPages)}
              onChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })}
              getItemProps={(p) => ({ 'aria-label': t('adminServers.list.page', { page: p }) })}
              getControlProps={(control) => ({ 'aria-label': t(`adminServers.list.${control}Page`) })}
              size="sm"
            />
          </Group>
        ) : null}
      </Stack>
    );
  })();

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3">
          {t('adminServers.list.title')}
        </Title>
        {createButton}
      </Group>
      <TextInput
        type="search"
        label={t('adminServers.list.search')}
        description={t('adminServers.list.searchHelp')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={draft}
        onChange={(event) => {
          setDraft(event.currentTarget.value);
          sendQuery(event.currentTarget.value);
        }}
        maxLength={100}
      />
      {content}
    </Stack>
  );
};
