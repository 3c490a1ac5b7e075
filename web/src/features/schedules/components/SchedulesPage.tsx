import { Anchor, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { serverQuery } from '@/features/server/api';
import { type Schedule, schedulesQuery } from '@/features/schedules/api';
import { describeCron, PANEL_TIME_ZONE, parseCronString } from '@/features/schedules/cron';
import { ScheduleActions } from '@/features/schedules/components/ScheduleActions';
import { ScheduleForm } from '@/features/schedules/components/ScheduleForm';
import { ZonedTime } from '@/features/schedules/components/ZonedTime';

/** Active or paused, running, only when online: the badges of a schedule (filled colours at AA contrast). */
export const ScheduleBadges = ({ schedule }: { schedule: Schedule }) => {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      <Badge color={schedule.is_active ? 'teal.9' : 'gray.7'} variant="filled" data-testid="schedule-state">
        {schedule.is_active ? t('schedules.active') : t('schedules.paused')}
      </Badge>
      {schedule.is_processing ? (
        <Badge color="blue" variant="light">
          {t('schedules.running')}
        </Badge>
      ) : null}
      {schedule.only_when_online ? (
        <Badge color="gray" variant="outline">
          {t('schedules.onlineOnly')}
        </Badge>
      ) : null}
    </Group>
  );
};

/** The cron in words (in the panel's zone) with the expression, then the next and the last run. */
export const ScheduleTimes = ({ schedule }: { schedule: Schedule }) => {
  const { t } = useTranslation();
  const words = describeCron(parseCronString(schedule.cron));
  return (
    <Stack gap={2}>
      <Text size="sm">
        {words ? t('schedules.inWords', { words, zone: PANEL_TIME_ZONE }) : t('schedules.wordsUnknown')} <Code>{schedule.cron}</Code>
      </Text>
      <Text size="sm" c="dimmed">
        {t('schedules.nextRun')}: {schedule.is_active ? <ZonedTime iso={schedule.next_run_at} /> : t('schedules.nextRunPaused')}
      </Text>
      <Text size="sm" c="dimmed" data-testid="last-run">
        {t('schedules.lastRun')}: {schedule.last_run_at ? <ZonedTime iso={schedule.last_run_at} /> : t('schedules.never_run')}
      </Text>
    </Stack>
  );
};

/** /server/$id/schedules: every schedule with its times and state; create, run now, pause, edit, delete. */
export const SchedulesPage = ({ serverId }: { serverId: string }) => {
  const { t } = useTranslation();
  const server = useQuery(serverQuery(serverId));
  const list = useQuery(schedulesQuery(serverId));
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const granted = new Set(server.data?.permissions ?? []);

  return (
    <QueryListBody query={list} waiting={server.isPending}>
      {(schedules) => {
        const createButton = granted.has('server.schedule.create') ? <Button onClick={() => setCreating(true)}>{t('schedules.create')}</Button> : null;
        return (
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h3">
                {t('schedules.title')}
              </Title>
              {schedules.length > 0 ? createButton : null}
            </Group>
            {schedules.length === 0 ? (
              <EmptyState icon={<IconCalendarTime />} title={t('schedules.emptyTitle')} description={t('schedules.emptyText')} action={createButton} />
            ) : (
              <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {schedules.map((s) => (
                  <Card key={s.id} withBorder component="li" padding="sm" aria-label={s.name}>
                    <Stack gap="xs">
                      <Group justify="space-between" align="flex-start" gap="xs">
                        <Stack gap={4} style={{ minWidth: 0 }}>
                          <Anchor renderRoot={(props) => <Link to="/server/$id/schedules/$sid" params={{ id: serverId, sid: s.id }} {...props} />} fw={600} style={{ overflowWrap: 'anywhere' }} aria-label={t('schedules.open', { name: s.name })}>
                            {s.name}
                          </Anchor>
                          <ScheduleBadges schedule={s} />
                        </Stack>
                        <ScheduleActions serverId={serverId} schedule={s} granted={granted} />
                      </Group>
                      <ScheduleTimes schedule={s} />
                    </Stack>
                  </Card>
                ))}
              </Stack>
            )}
            {creating ? (
              <ScheduleForm
                serverId={serverId}
                onClose={() => setCreating(false)}
                // A new schedule has no tasks yet: its page is where they are added.
                onCreated={(created) => void navigate({ to: '/server/$id/schedules/$sid', params: { id: serverId, sid: created.id } })}
              />
            ) : null}
          </Stack>
        );
      }}
    </QueryListBody>
  );
};
