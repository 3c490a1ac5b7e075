import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_EVENTS, accountActivityQuery } from '@/features/activity/api';
import { ActivityHeader, ActivityList } from '@/features/activity/components/ActivityPage';
import { eventKey } from '@/features/activity/events';
import type { ActivitySearch } from '@/features/activity/search-params';

/** /account/activity: what the signed-in person did to their own account, newest first, as a server's activity looks. */
export const AccountActivityPage = ({ search, onSearchChange }: { search: ActivitySearch; onSearchChange: (next: ActivitySearch) => void }) => {
  const { t } = useTranslation();
  const page = search.page ?? 1;
  const list = useQuery(accountActivityQuery(page, search.event));
  const setEvent = (event: string | undefined) => onSearchChange({ ...(event ? { event } : {}) });
  const options = ACCOUNT_EVENTS.map((event) => {
    const key = eventKey(event);
    return { value: event, label: key ? t(`activity.events.${key}`) : event };
  });
  return (
    <Stack gap="md">
      <ActivityHeader options={options} event={search.event} onEvent={setEvent} />
      <ActivityList
        list={list}
        page={page}
        filtered={Boolean(search.event)}
        empty={{ title: t('activity.emptyTitle'), text: t('activity.account.emptyText'), filteredText: t('activity.account.emptyFilteredText') }}
        onOnlyThis={setEvent}
        onClear={() => setEvent(undefined)}
        onPage={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })}
      />
    </Stack>
  );
};
