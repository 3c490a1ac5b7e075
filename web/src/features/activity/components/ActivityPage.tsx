import { Anchor, Box, Button, Card, Code, Group, Select, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/ListPagination';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ListSkeleton } from '@/components/Skeletons';
import { type ActivityEntry, activityQuery } from '@/features/activity/api';
import { EVENT_GROUPS, eventKey, metadataSummary } from '@/features/activity/events';
import type { ActivitySearch } from '@/features/activity/search-params';
import { formatDateTime, formatRelativeSeconds } from '@/lib/format';

const ALL = 'all';

/** Who acted: the user, else what acted for nobody (a schedule, the node, SFTP), else the panel itself. */
const Who = ({ entry }: { entry: ActivityEntry }) => {
  const { t } = useTranslation();
  const via = entry.via === 'schedule' || entry.via === 'daemon' || entry.via === 'sftp' ? t(`activity.via.${entry.via}`) : null;
  if (entry.actor?.username) {
    return (
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {entry.actor.username}
        {via ? (
          <Text span c="dimmed" inherit fw={400}>
            {' '}
            ({via})
          </Text>
        ) : null}
      </Text>
    );
  }
  return (
    <Text size="sm" fw={600}>
      {via ?? t('activity.system')}
    </Text>
  );
};

const Entry = ({ entry, onOnlyThis }: { entry: ActivityEntry; onOnlyThis: (event: string) => void }) => {
  const { t, i18n } = useTranslation();
  const key = eventKey(entry.event);
  const summary = metadataSummary(entry.metadata);
  const seconds = (new Date(entry.timestamp).getTime() - Date.now()) / 1000;
  const hasMetadata = Object.keys(entry.metadata).length > 0;
  return (
    <Card withBorder component="li" padding="sm" data-event={entry.event}>
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} data-testid="activity-what">
              {key ? t(`activity.events.${key}`) : entry.event}
            </Text>
            <Group gap={6}>
              <Who entry={entry} />
              {entry.ip ? (
                <Text size="sm" c="dimmed">
                  · {t('activity.ip', { ip: entry.ip })}
                </Text>
              ) : null}
            </Group>
          </Stack>
          {/* Right of the entry when there is room; under it, flush left, on a phone. */}
          <Box ta={{ base: 'left', xs: 'right' }}>
            <Text size="sm">{formatRelativeSeconds(seconds, i18n.language)}</Text>
            <Text size="xs" c="dimmed" component="time" dateTime={entry.timestamp} display="block">
              {formatDateTime(entry.timestamp, i18n.language)}
            </Text>
          </Box>
        </Group>
        {summary ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {summary}
          </Text>
        ) : null}
        <Group gap="xs">
          <UnstyledButton onClick={() => onOnlyThis(entry.event)} aria-label={`${t('activity.onlyThis')}: ${entry.event}`} title={t('activity.onlyThis')}>
            <Code>{entry.event}</Code>
          </UnstyledButton>
        </Group>
        {hasMetadata ? (
          <details>
            <Text component="summary" size="sm" style={{ cursor: 'pointer' }} aria-label={t('activity.detailsOf', { event: entry.event })}>
              {t('activity.details')}
            </Text>
            <Code block mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {JSON.stringify(entry.metadata, null, 2)}
            </Code>
          </details>
        ) : null}
      </Stack>
    </Card>
  );
};

/** What an activity list shows: one page of entries, newest first, with its loading, error and empty states. */
interface ActivityListProps {
  list: UseQueryResult<{ data: ActivityEntry[]; meta: { pagination: { total: number; totalPages: number } } }>;
  page: number;
  filtered: boolean;
  empty: { title: string; text: string; filteredText: string };
  onOnlyThis: (event: string) => void;
  onClear: () => void;
  onPage: (page: number) => void;
}

/** The entries of one page, their count and the pages: the same for a server's activity and an account's. */
export const ActivityList = ({ list, page, filtered, empty, onOnlyThis, onClear, onPage }: ActivityListProps) => {
  const { t } = useTranslation();
  return (
    <QueryListBody
      query={list}
      loading={<ListSkeleton rows={5} />}
      isEmpty={({ data }) => data.length === 0}
      empty={
        filtered || page > 1 ? (
          <EmptyState
            icon={<IconActivity />}
            title={t('activity.emptyFilteredTitle')}
            description={empty.filteredText}
            action={
              <Button variant="light" onClick={onClear}>
                {t('activity.clearFilter')}
              </Button>
            }
          />
        ) : (
          <EmptyState icon={<IconActivity />} title={empty.title} description={empty.text} />
        )
      }
    >
      {({ data, meta }) => {
        const { totalPages, total } = meta.pagination;
        return (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('activity.count', { count: total })}
            </Text>
            <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0, opacity: list.isPlaceholderData ? 0.6 : 1 }} aria-busy={list.isPlaceholderData || undefined}>
              {data.map((entry) => (
                <Entry key={entry.id} entry={entry} onOnlyThis={onOnlyThis} />
              ))}
            </Stack>
            <ListPagination total={totalPages} value={page} onChange={onPage} label={t('activity.pagination')} />
          </Stack>
        );
      }}
    </QueryListBody>
  );
};

/** The page's title and its "show" filter: a server's event groups, or an account's events. */
export const ActivityHeader = ({ options, event, onEvent }: { options: { value: string; label: string }[]; event: string | undefined; onEvent: (event: string | undefined) => void }) => {
  const { t } = useTranslation();
  const all = [{ value: ALL, label: t('activity.filters.all') }, ...options, ...(event && !options.some((o) => o.value === event) ? [{ value: event, label: t('activity.exactFilter', { event }) }] : [])];
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Title order={2} size="h3">
        {t('activity.title')}
      </Title>
      <Group gap="xs" align="flex-end">
        <Select label={t('activity.filter')} data={all} value={event ?? ALL} onChange={(v) => onEvent(v && v !== ALL ? v : undefined)} allowDeselect={false} comboboxProps={{ withinPortal: true }} w={260} maw="100%" />
        {event ? (
          <Anchor component="button" type="button" size="sm" onClick={() => onEvent(undefined)} mb={8}>
            {t('activity.clearFilter')}
          </Anchor>
        ) : null}
      </Group>
    </Group>
  );
};

/** /server/$id/activity: the server's activity, newest first, a page at a time, optionally only one kind of event. */
export const ActivityPage = ({ serverId, search, onSearchChange }: { serverId: string; search: ActivitySearch; onSearchChange: (next: ActivitySearch) => void }) => {
  const { t } = useTranslation();
  const page = search.page ?? 1;
  const list = useQuery(activityQuery(serverId, page, search.event));
  const setEvent = (event: string | undefined) => onSearchChange({ ...(event ? { event } : {}) });
  return (
    <Stack gap="md">
      <ActivityHeader options={EVENT_GROUPS.map((g) => ({ value: g, label: t(`activity.filters.${g}`) }))} event={search.event} onEvent={setEvent} />
      <ActivityList
        list={list}
        page={page}
        filtered={Boolean(search.event)}
        empty={{ title: t('activity.emptyTitle'), text: t('activity.emptyText'), filteredText: t('activity.emptyFilteredText') }}
        onOnlyThis={setEvent}
        onClear={() => setEvent(undefined)}
        onPage={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })}
      />
    </Stack>
  );
};
