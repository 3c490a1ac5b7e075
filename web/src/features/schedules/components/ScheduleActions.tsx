import { Button, Group, Menu } from '@mantine/core';
import { IconDotsVertical, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { type Schedule, useDeleteSchedule, useRunSchedule, useUpdateSchedule } from '@/features/schedules/api';
import { ScheduleForm } from '@/features/schedules/components/ScheduleForm';
import { notify, notifyError } from '@/lib/notify';

/**
 * Run now, pause/resume, edit and delete of one schedule, each shown to those who may do it
 * (run, pause and edit: server.schedule.update; delete: server.schedule.delete).
 */
export const ScheduleActions = ({ serverId, schedule, granted, onDeleted }: { serverId: string; schedule: Schedule; granted: Set<string>; onDeleted?: () => void }) => {
  const { t } = useTranslation();
  const run = useRunSchedule(serverId);
  const update = useUpdateSchedule(serverId);
  const remove = useConfirmedAction({
    mutation: useDeleteSchedule(serverId),
    variables: (s: Schedule) => s.id,
    title: t('schedules.deleteTitle'),
    message: (s) => t('schedules.deleteText', { name: s.name }),
    confirmLabel: t('schedules.delete'),
    danger: true,
    successMessage: () => t('schedules.deleted'),
    onSuccess: () => onDeleted?.(),
    keepOpenOnError: true,
  });
  const [editing, setEditing] = useState(false);
  const canUpdate = granted.has('server.schedule.update');
  const canDelete = granted.has('server.schedule.delete');
  if (!canUpdate && !canDelete) {
    return null;
  }
  const toggle = () => update.mutate({ id: schedule.id, is_active: !schedule.is_active }, { onSuccess: (s) => notify({ color: 'green', message: s.is_active ? t('schedules.resumedToast') : t('schedules.pausedToast') }), onError: notifyError });
  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      {canUpdate ? (
        <>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            disabled={schedule.is_processing}
            loading={run.isPending}
            onClick={() => run.mutate(schedule.id, { onSuccess: () => notify({ color: 'green', message: t('schedules.runStarted') }), onError: notifyError })}
            aria-label={`${t('schedules.runNow')}: ${schedule.name}`}
          >
            {t('schedules.runNow')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={schedule.is_active ? <IconPlayerPause size={14} aria-hidden /> : <IconPlayerPlay size={14} aria-hidden />}
            loading={update.isPending}
            onClick={toggle}
            aria-label={`${schedule.is_active ? t('schedules.pause') : t('schedules.resume')}: ${schedule.name}`}
          >
            {schedule.is_active ? t('schedules.pause') : t('schedules.resume')}
          </Button>
        </>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" size="xs" rightSection={<IconDotsVertical size={14} aria-hidden />} aria-label={t('schedules.actionsOf', { name: schedule.name })}>
            {t('schedules.actions')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {canUpdate ? <Menu.Item onClick={() => setEditing(true)}>{t('schedules.edit')}</Menu.Item> : null}
          {canDelete ? (
            <Menu.Item color="red" onClick={() => remove.ask(schedule)}>
              {t('schedules.delete')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      {editing ? <ScheduleForm serverId={serverId} schedule={schedule} onClose={() => setEditing(false)} /> : null}
      {remove.dialog}
    </Group>
  );
};
