import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch, IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ListSkeleton } from '@/components/Skeletons';
import { adminServersQuery } from '@/features/admin-servers/api';
import { ServerTable } from '@/features/admin-servers/components/ServerTable';
import type { AdminServersSearch } from '@/features/admin-servers/search-params';
import { useAdminAccess } from '@/features/auth/admin-access';

const SEARCH_DEBOUNCE_MS = 300;

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

  // A new server's node is chosen on the form: only a grant on every node may create one.
  const access = useAdminAccess();
  const canCreate = access.can('servers', 'write') && access.everyNode('servers');
  const nodeLimited = !access.everyNode('servers');
  const createButton = canCreate ? (
    <Button renderRoot={(props) => <Link {...props} to="/admin/servers/new" />} leftSection={<IconPlus size={16} aria-hidden />}>
      {t('adminServers.list.create')}
    </Button>
  ) : null;

  const content = (
    <QueryListBody
      query={list}
      loading={<ListSkeleton rows={4} />}
      isEmpty={(data) => data.meta.pagination.total === 0}
      empty={
        query ? (
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
            title={nodeLimited ? t('adminServers.list.emptyLimitedTitle') : t('adminServers.list.emptyTitle')}
            description={canCreate ? t('adminServers.list.emptyText') : nodeLimited ? t('adminServers.list.emptyLimitedText') : t('adminServers.list.emptyReadText')}
            action={
              canCreate ? (
                <Button variant="light" renderRoot={(props) => <Link {...props} to="/admin/servers/new" />}>
                  {t('adminServers.list.createFirst')}
                </Button>
              ) : undefined
            }
          />
        )
      }
    >
      {(data) => {
        const { total, totalPages } = data.meta.pagination;
        return (
          <Stack gap="sm" aria-busy={list.isPlaceholderData || undefined} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
            <Text size="sm" c="dimmed">
              {query ? t('adminServers.list.matches', { count: total, query }) : t('adminServers.list.count', { count: total })}
            </Text>
            <ServerTable servers={data.data} page={page} totalPages={totalPages} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />
          </Stack>
        );
      }}
    </QueryListBody>
  );

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
