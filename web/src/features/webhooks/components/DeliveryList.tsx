import { Badge, Button, Card, Code, Collapse, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/ListPagination';
import { QueryListBody } from '@/components/QueryListBody';
import { type Delivery, deliveriesQuery, type WebhookScope } from '@/features/webhooks/api';
import type { EventName } from '@/features/webhooks/events';
import { eventLabelKey } from '@/features/webhooks/components/WebhookDialog';
import { formatDateTime } from '@/lib/format';

const STATUS_COLOR: Record<Delivery['status'], string> = { pending: 'yellow', delivered: 'green', failed: 'red' };

/** What an attempt came to: its HTTP status, or why there was none. */
export const attemptResult = (attempt: Delivery['attempts'][number], noAnswer: string): string =>
  attempt.statusCode === null ? (attempt.error ?? noAnswer) : `HTTP ${attempt.statusCode}${attempt.error ? ` · ${attempt.error}` : ''}`;

/** An event's name, or the raw one for an event this UI does not know yet. */
export const EventLabel = ({ event }: { event: string }) => {
  const { t } = useTranslation();
  return <>{t(eventLabelKey(event as EventName), { defaultValue: event })}</>;
};

const DeliveryRow = ({ delivery }: { delivery: Delivery }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const last = delivery.attempts.at(-1);
  const detailsId = `delivery-${delivery.id}`;
  const when = formatDateTime(delivery.createdAt);
  return (
    <Card withBorder padding="sm" component="li" aria-label={`${delivery.event} ${when}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" color={STATUS_COLOR[delivery.status]} styles={{ label: { color: 'var(--mantine-color-text)' } }}>
              {t(`webhooks.status.${delivery.status}`)}
            </Badge>
            <Text size="sm" fw={600}>
              <EventLabel event={delivery.event} />
            </Text>
            <Text size="sm" c="dimmed" ff="monospace">
              {delivery.event}
            </Text>
            {delivery.test ? (
              <Badge variant="outline" color="gray" size="sm">
                {t('webhooks.testBadge')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {when}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">
            {t('webhooks.attempts', { count: delivery.attempts.length })}
            {last ? ` · ${attemptResult(last, t('webhooks.noAnswer'))}` : ''}
            {delivery.nextAttemptAt ? ` · ${t('webhooks.nextAttempt', { time: formatDateTime(delivery.nextAttemptAt) })}` : ''}
          </Text>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={t('webhooks.details', { event: delivery.event, time: when })}
          >
            {open ? t('webhooks.hideDetails') : t('webhooks.showDetails')}
          </Button>
        </Group>
        <Collapse expanded={open} id={detailsId} keepMounted={false}>
          <Stack gap="xs">
            <Stack gap={2} component="ol" style={{ paddingLeft: 20, margin: 0 }}>
              {delivery.attempts.map((a) => (
                <Text key={a.at} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                  {t('webhooks.attemptLine', { time: formatDateTime(a.at), result: attemptResult(a, t('webhooks.noAnswer')), ms: a.durationMs })}
                </Text>
              ))}
            </Stack>
            <Text size="sm" fw={600}>
              {t('webhooks.payload')}
            </Text>
            {/* Scrolls when long: focusable, so the keyboard can scroll it too. */}
            <Code block fz="xs" style={{ maxHeight: 280, overflow: 'auto' }} tabIndex={0} aria-label={t('webhooks.payload')}>
              {JSON.stringify(delivery.payload, null, 2)}
            </Code>
          </Stack>
        </Collapse>
      </Stack>
    </Card>
  );
};

/** A webhook's deliveries, newest first, a page at a time; read again while one waits for its next try. */
export const DeliveryList = ({ scope, webhookId }: { scope: WebhookScope; webhookId: string }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const deliveries = useQuery(deliveriesQuery(scope, webhookId, page));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="webhook-deliveries">
      <Stack gap="sm">
        <Title order={3} size="h4" id="webhook-deliveries">
          {t('webhooks.deliveries')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('webhooks.deliveriesIntro')}
        </Text>
        <QueryListBody query={deliveries} isEmpty={(d) => d.data.length === 0} empty={<Text size="sm">{t('webhooks.deliveriesEmpty')}</Text>}>
          {(d) => (
            <Stack gap="xs">
              <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {d.data.map((delivery) => (
                  <DeliveryRow key={delivery.id} delivery={delivery} />
                ))}
              </Stack>
              <ListPagination total={d.totalPages} value={page} onChange={setPage} label={t('webhooks.deliveriesPagination')} />
            </Stack>
          )}
        </QueryListBody>
      </Stack>
    </Card>
  );
};
