import { Accordion, Anchor, Autocomplete, Box, Button, Code, Group, Pagination, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFilterOff, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ListSkeleton } from '@/components/Skeletons';
import { actorsQuery, type AuditEntry, type AuditFilter, auditQuery, KNOWN_ACTIONS } from '@/features/admin-audit/api';
import { actionKey, targetLink } from '@/features/admin-audit/describe';
import { formatDateTime } from '@/lib/format';

/** The action in words ("Created server") and what it was done to, by name, linked to its administration page. */
const useDescribe = () => {
  const { t } = useTranslation();
  return (entry: AuditEntry) => {
    const key = actionKey(entry.action);
    const action = key ? t(`adminAudit.actions.${key}`) : entry.action;
    const target = entry.target.name ?? t('adminAudit.targetNumber', { type: entry.target.type, id: entry.target.id });
    return { action, target, what: `${action} ${target}`, link: targetLink(entry) };
  };
};

const EntryDetails = ({ entry }: { entry: AuditEntry }) => {
  const { t } = useTranslation();
  const { before, after } = entry.changes;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('adminAudit.via')}:{' '}
          </Text>
          {entry.actor.via ?? '—'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('adminAudit.ip')}:{' '}
          </Text>
          {entry.ip ?? '—'}
        </Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('adminAudit.target')}:{' '}
          </Text>
          {t('adminAudit.targetNumber', { type: entry.target.type, id: entry.target.id })}
        </Text>
      </SimpleGrid>
      {before && Object.keys(before).length > 0 ? (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('adminAudit.before')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {JSON.stringify(before, null, 2)}
          </Code>
        </Stack>
      ) : null}
      {after && Object.keys(after).length > 0 ? (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('adminAudit.after')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {JSON.stringify(after, null, 2)}
          </Code>
        </Stack>
      ) : null}
      {!before && !after ? (
        <Text size="sm" c="dimmed">
          {t('adminAudit.noChanges')}
        </Text>
      ) : null}
    </Stack>
  );
};

/** /admin/audit?action=&actorId=&page=: who changed what in the administration, newest first; filters and page in the address. */
export const AuditPage = ({ filter, onFilterChange }: { filter: AuditFilter; onFilterChange: (next: AuditFilter) => void }) => {
  const { t, i18n } = useTranslation();
  const list = useQuery(auditQuery(filter));
  const describe = useDescribe();
  const actors = useQuery(actorsQuery());
  const [action, setAction] = useState(filter.action ?? '');
  const page = filter.page ?? 1;

  // The typed action applies once it is a whole word of the log (picked, or typed and left for a moment).
  useEffect(() => {
    const next = action.trim();
    if (next === (filter.action ?? '')) {
      return undefined;
    }
    const timer = setTimeout(() => onFilterChange({ ...filter, action: next || undefined, page: undefined }), 400);
    return () => clearTimeout(timer);
  }, [action, filter, onFilterChange]);

  const filtered = Boolean(filter.action || filter.actorId);
  const body = (
    <QueryListBody
      query={list}
      loading={<ListSkeleton rows={5} />}
      isEmpty={(data) => data.entries.length === 0}
      empty={
        filtered ? <EmptyState icon={<IconHistory />} title={t('adminAudit.noMatchTitle')} description={t('adminAudit.noMatchText')} /> : <EmptyState icon={<IconHistory />} title={t('adminAudit.emptyTitle')} description={t('adminAudit.emptyText')} />
      }
    >
      {(data) => (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('adminAudit.count', { count: data.total })}
          </Text>
          <Accordion variant="separated" multiple chevronPosition="right" aria-busy={list.isPlaceholderData || undefined}>
            {data.entries.map((entry) => {
              const d = describe(entry);
              const actor = entry.actor.username ?? t('adminAudit.system');
              return (
                <Accordion.Item key={entry.id} value={entry.id} data-testid="audit-entry">
                  {/* The link stays outside the control: a link inside a button is neither. */}
                  <Group wrap="nowrap" gap={0} align="center">
                    <Box px="md" py="xs" style={{ flex: 1, minWidth: 0 }}>
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {d.action}{' '}
                        {d.link ? (
                          <Anchor inherit underline="always" renderRoot={(props) => <Link {...props} {...d.link} />}>
                            {d.target}
                          </Anchor>
                        ) : (
                          d.target
                        )}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t('adminAudit.doneBy', { actor })} · {formatDateTime(entry.createdAt, i18n.language)}
                      </Text>
                    </Box>
                    <Accordion.Control aria-label={t('adminAudit.entryLabel', { what: d.what, actor })} w="auto" />
                  </Group>
                  <Accordion.Panel>
                    <EntryDetails entry={entry} />
                  </Accordion.Panel>
                </Accordion.Item>
              );
            })}
          </Accordion>
          {data.totalPages > 1 ? (
            <Group justify="center">
              <Pagination
                total={data.totalPages}
                value={Math.min(page, data.totalPages)}
                onChange={(p) => onFilterChange({ ...filter, page: p > 1 ? p : undefined })}
                getItemProps={(p) => ({ 'aria-label': t('adminAudit.page', { page: p }) })}
                getControlProps={(control) => ({ 'aria-label': t(control === 'previous' || control === 'first' ? 'adminAudit.previousPage' : 'adminAudit.nextPage') })}
                size="sm"
              />
            </Group>
          ) : null}
        </Stack>
      )}
    </QueryListBody>
  );

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('adminAudit.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Autocomplete
          label={t('adminAudit.action')}
          placeholder={t('adminAudit.actionPlaceholder')}
          data={[...KNOWN_ACTIONS]}
          value={action}
          onChange={setAction}
          onOptionSubmit={(value) => onFilterChange({ ...filter, action: value, page: undefined })}
          clearable
        />
        <Select
          label={t('adminAudit.actor')}
          placeholder={t('adminAudit.anyone')}
          data={(actors.data ?? []).map((u) => ({ value: u.id, label: u.username }))}
          value={filter.actorId ?? null}
          onChange={(value) => onFilterChange({ ...filter, actorId: value ?? undefined, page: undefined })}
          searchable
          clearable
          nothingFoundMessage={t('adminAudit.noActor')}
        />
        <Group align="flex-end">
          <Button
            variant="default"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            disabled={!filtered}
            onClick={() => {
              setAction('');
              onFilterChange({});
            }}
          >
            {t('adminAudit.clear')}
          </Button>
        </Group>
      </SimpleGrid>
      {body}
    </Stack>
  );
};
