import { Box, Button, Group, SimpleGrid, Stack, Tabs, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch, IconServer } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MUTED } from '@/features/dashboard/components/muted';
import { ListPagination } from '@/components/ListPagination';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { CardsSkeleton } from '@/components/Skeletons';
import { useServerList, type ServerTab } from '@/features/dashboard/api';
import { ServerCard } from '@/features/dashboard/components/ServerCard';
import type { ConnectionState } from '@/lib/live-status';
import type { DashboardSearch } from '@/features/dashboard/search-params';
import { statusChanges, statusOf, type StatusView } from '@/features/dashboard/server-view';
import { useLiveStatus } from '@/lib/use-live-status';

const SEARCH_DEBOUNCE_MS = 300;

const LIVE_COLOR: Record<ConnectionState, string> = {
  open: 'var(--mantine-color-green-6)',
  connecting: 'var(--mantine-color-yellow-5)',
  reconnecting: 'var(--mantine-color-yellow-5)',
  denied: 'var(--mantine-color-red-6)',
  idle: 'var(--mantine-color-gray-5)',
};

interface DashboardPageProps {
  search: DashboardSearch;
  admin: boolean;
  /** The signed-in user's id: their servers carry no owner, the others "Shared by …". */
  selfId: string;
  /** Replaces the URL's search params (tab, q, page). */
  onSearchChange: (next: DashboardSearch) => void;
}

/** `/`: the caller's servers by tab, searchable and paged, each card live from `/api/ws`. */
export const DashboardPage = ({ search, admin, selfId, onSearchChange }: DashboardPageProps) => {
  const { t } = useTranslation();
  const tab: ServerTab = search.tab === 'all' && !admin ? 'mine' : (search.tab ?? 'mine');
  const page = search.page ?? 1;
  const query = search.q ?? '';
  const list = useServerList(tab, page, query);
  const servers = useMemo(() => list.data?.servers ?? [], [list.data]);
  const live = useLiveStatus(useMemo(() => servers.map((s) => s.uuid), [servers]));
  const connected = live.connection === 'open';

  // The search box answers every key at once; the URL (and the list) follow when typing pauses.
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
    onSearchChange({ tab: search.tab, q: value.trim() || undefined });
  }, SEARCH_DEBOUNCE_MS);

  const statuses = useMemo(() => new Map(servers.map((s): [string, StatusView] => [s.uuid, statusOf(s, live.servers.get(s.uuid), connected)])), [servers, live.servers, connected]);

  // Polite announcements of status changes (not of cards appearing).
  const [announcement, setAnnouncement] = useState('');
  const seen = useRef(new Map<string, StatusView['key']>());
  useEffect(() => {
    const next = new Map([...statuses].map(([uuid, s]): [string, StatusView['key']] => [uuid, s.key]));
    const changes = statusChanges(seen.current, next);
    seen.current = next;
    if (changes.length > 0) {
      const names = new Map(servers.map((s) => [s.uuid, s.name]));
      setAnnouncement(changes.map((c) => t('dashboard.announce', { name: names.get(c.uuid) ?? c.uuid, status: t(`dashboard.status.${c.key}`) })).join('. '));
    }
  }, [statuses, servers, t]);

  const setTab = (value: string | null) => {
    if (value && value !== tab) {
      onSearchChange({ tab: value === 'mine' ? undefined : (value as ServerTab), q: search.q });
    }
  };

  const tabs: ServerTab[] = admin ? ['mine', 'shared', 'all'] : ['mine', 'shared'];

  const emptyState = (() => {
    if (query) {
      return (
        <EmptyState
          icon={<IconSearch />}
          title={t('dashboard.empty.searchTitle', { query })}
          description={t('dashboard.empty.searchText')}
          action={
            <Button
              variant="light"
              onClick={() => {
                setDraft('');
                sendQuery.cancel?.();
                sent.current = '';
                onSearchChange({ tab: search.tab });
              }}
            >
              {t('dashboard.empty.clearSearch')}
            </Button>
          }
        />
      );
    }
    const text = tab === 'shared' ? t('dashboard.empty.sharedText') : tab === 'all' ? t('dashboard.empty.allText') : admin ? t('dashboard.empty.mineAdminText') : t('dashboard.empty.mineText');
    const title = tab === 'shared' ? t('dashboard.empty.sharedTitle') : tab === 'all' ? t('dashboard.empty.allTitle') : t('dashboard.empty.mineTitle');
    return (
      <EmptyState
        icon={<IconServer />}
        title={title}
        description={text}
        action={
          <Group justify="center" gap="sm">
            {admin && tab !== 'shared' ? (
              <Button renderRoot={(props) => <Link {...props} to="/admin/servers/new" />} leftSection={<IconPlus size={16} aria-hidden />}>
                {t('dashboard.empty.createServer')}
              </Button>
            ) : null}
          </Group>
        }
      />
    );
  })();

  const content = (
    <QueryListBody query={list} loading={<CardsSkeleton cards={3} />} errorTitle={t('dashboard.loadError')} isEmpty={(data) => data.total === 0} empty={emptyState}>
      {(data) => {
        const { total, totalPages } = data;
        return (
          <Stack gap="md">
            <Text size="sm" c={MUTED}>
              {query ? t('dashboard.matches', { count: total, query }) : t('dashboard.count', { count: total })}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy={list.isPlaceholderData || undefined} style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              {servers.map((server) => (
                <ServerCard key={server.id} server={server} live={live.servers.get(server.uuid)} status={statuses.get(server.uuid)!} owner={server.owner.id === selfId ? 'self' : tab === 'all' ? 'other' : 'sharer'} />
              ))}
            </SimpleGrid>
            <ListPagination total={totalPages} value={page} onChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} label={t('dashboard.pagination')} />
          </Stack>
        );
      }}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} size="h2">
          {t('dashboard.title')}
        </Title>
        <Group gap={6} wrap="nowrap">
          <Box w={8} h={8} style={{ borderRadius: '50%', background: LIVE_COLOR[live.connection] }} aria-hidden />
          <Text size="xs" c={MUTED}>
            {t(`dashboard.live.${live.connection}`)}
          </Text>
        </Group>
      </Group>
      <TextInput
        type="search"
        label={t('dashboard.search.label')}
        placeholder={t('dashboard.search.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={draft}
        onChange={(event) => {
          setDraft(event.currentTarget.value);
          sendQuery(event.currentTarget.value);
        }}
        maxLength={100}
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label={t('dashboard.tabs.label')}>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`dashboard.tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            {value === tab ? content : null}
          </Tabs.Panel>
        ))}
      </Tabs>
      <VisuallyHidden aria-live="polite" role="status">
        {announcement}
      </VisuallyHidden>
    </Stack>
  );
};
