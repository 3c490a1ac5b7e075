import { ActionIcon, Anchor, Badge, Button, Card, Checkbox, Code, Group, Modal, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconListCheck, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { FormError } from '@/components/FormError';
import { PageSkeleton } from '@/components/Skeletons';
import { useConfirmedAction } from '@/components/useConfirmedAction';
import { serverQuery } from '@/features/server/api';
import { MAX_TASKS, MAX_TIME_OFFSET, POWER_ACTIONS, scheduleQuery, type ScheduleTask, TASK_ACTIONS, type TaskAction, useCreateTask, useDeleteTask } from '@/features/schedules/api';
import { ScheduleActions } from '@/features/schedules/components/ScheduleActions';
import { ScheduleBadges, ScheduleTimes } from '@/features/schedules/components/SchedulesPage';
import { formatDuration } from '@/lib/format';
import { notify } from '@/lib/notify';

/** The permission doing a task's action by hand needs; the panel refuses a task its author could not do. */
const ACTION_PERMISSION: Record<TaskAction, string> = { command: 'server.console', power: 'server.power', backup: 'server.backup.create' };

const AddTaskDialog = ({ serverId, scheduleId, granted, onClose }: { serverId: string; scheduleId: string; granted: Set<string>; onClose: () => void }) => {
  const { t } = useTranslation();
  const create = useCreateTask(serverId, scheduleId);
  const allowed = TASK_ACTIONS.filter((a) => granted.has(ACTION_PERMISSION[a]));
  const [action, setAction] = useState<TaskAction>(allowed[0] ?? 'command');
  const [command, setCommand] = useState('');
  const [power, setPower] = useState<string>('restart');
  const [backupName, setBackupName] = useState('');
  const [offset, setOffset] = useState<number | string>(0);
  const [continueOnFailure, setContinueOnFailure] = useState(false);
  const offsetOk = typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 && offset <= MAX_TIME_OFFSET;
  const payloadOk = action !== 'command' || command.trim().length > 0;
  return (
    <Modal opened onClose={onClose} title={t('schedules.tasks.addTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!offsetOk || !payloadOk) {
            return;
          }
          const payload = action === 'command' ? command : action === 'power' ? power : backupName.trim() || undefined;
          create.mutate(
            { action, ...(payload === undefined ? {} : { payload }), time_offset: offset, continue_on_failure: continueOnFailure },
            {
              onSuccess: () => {
                notify({ color: 'green', message: t('schedules.tasks.added') });
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <Select
            label={t('schedules.tasks.action')}
            data={allowed.map((a) => ({ value: a, label: t(`schedules.tasks.actions.${a}`) }))}
            value={action}
            onChange={(v) => v && setAction(v)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {action === 'command' ? (
            <TextInput
              label={t('schedules.tasks.command')}
              description={t('schedules.tasks.commandHelp')}
              required
              maxLength={4096}
              value={command}
              onChange={(e) => setCommand(e.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              data-autofocus
            />
          ) : null}
          {action === 'power' ? (
            <Select
              label={t('schedules.tasks.power')}
              data={POWER_ACTIONS.map((p) => ({ value: p, label: t(`schedules.tasks.powerActions.${p}`) }))}
              value={power}
              onChange={(v) => v && setPower(v)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {action === 'backup' ? <TextInput label={t('schedules.tasks.backupName')} description={t('schedules.tasks.backupNameHelp')} maxLength={191} value={backupName} onChange={(e) => setBackupName(e.currentTarget.value)} /> : null}
          <NumberInput
            label={t('schedules.tasks.offset')}
            description={t('schedules.tasks.offsetHelp')}
            min={0}
            max={MAX_TIME_OFFSET}
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            value={offset}
            onChange={setOffset}
            error={offsetOk ? undefined : t('schedules.tasks.offsetHelp')}
          />
          <Checkbox label={t('schedules.tasks.continueOnFailure')} description={t('schedules.tasks.continueOnFailureHelp')} checked={continueOnFailure} onChange={(e) => setContinueOnFailure(e.currentTarget.checked)} />
          {create.error ? <FormError error={create.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!offsetOk || !payloadOk} loading={create.isPending}>
              {t('schedules.tasks.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

const TaskPayload = ({ task }: { task: ScheduleTask }) => {
  const { t } = useTranslation();
  if (task.action === 'power') {
    return <Text size="sm">{(POWER_ACTIONS as readonly string[]).includes(task.payload) ? t(`schedules.tasks.powerActions.${task.payload as (typeof POWER_ACTIONS)[number]}`) : task.payload}</Text>;
  }
  if (task.action === 'backup' && task.payload === '') {
    return (
      <Text size="sm" c="dimmed">
        {t('schedules.tasks.noPayload')}
      </Text>
    );
  }
  return <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{task.payload}</Code>;
};

/** /server/$id/schedules/$sid: the schedule's times and state, and its tasks in the order they run. */
export const ScheduleDetailPage = ({ serverId, scheduleId }: { serverId: string; scheduleId: string }) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const server = useQuery(serverQuery(serverId));
  const schedule = useQuery(scheduleQuery(serverId, scheduleId));
  const removeTask = useConfirmedAction({
    mutation: useDeleteTask(serverId, scheduleId),
    variables: ({ task }: { task: ScheduleTask; n: number }) => task.id,
    title: t('schedules.tasks.deleteTitle'),
    message: ({ task, n }) => t('schedules.tasks.deleteText', { n, action: t(`schedules.tasks.actions.${task.action}`) }),
    confirmLabel: t('schedules.tasks.delete'),
    danger: true,
    successMessage: () => t('schedules.tasks.deleted'),
    keepOpenOnError: true,
  });
  const [adding, setAdding] = useState(false);
  const granted = new Set(server.data?.permissions ?? []);

  if (schedule.isPending || server.isPending) {
    return <PageSkeleton />;
  }
  const back = (
    <Anchor size="sm" renderRoot={(props) => <Link to="/server/$id/schedules" params={{ id: serverId }} {...props} />}>
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('schedules.back')}
      </Group>
    </Anchor>
  );
  if (schedule.isError) {
    return (
      <Stack gap="md">
        {back}
        <ErrorState error={schedule.error} onRetry={() => void schedule.refetch()} />
      </Stack>
    );
  }
  const s = schedule.data;
  const tasks = [...s.tasks].sort((a, b) => a.sequence_id - b.sequence_id);
  const canEdit = granted.has('server.schedule.update');
  const full = tasks.length >= MAX_TASKS;
  const addButton = canEdit ? (
    <Button onClick={() => setAdding(true)} disabled={full}>
      {t('schedules.tasks.add')}
    </Button>
  ) : null;
  return (
    <Stack gap="md">
      {back}
      <Card withBorder padding="sm">
        <Stack gap="xs">
          <Group justify="space-between" align="flex-start" gap="xs">
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
                {s.name}
              </Title>
              <ScheduleBadges schedule={s} />
            </Stack>
            <ScheduleActions serverId={serverId} schedule={s} granted={granted} onDeleted={() => void navigate({ to: '/server/$id/schedules', params: { id: serverId } })} />
          </Group>
          <ScheduleTimes schedule={s} />
        </Stack>
      </Card>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Title order={3} size="h4">
            {t('schedules.tasks.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('schedules.tasks.count', { count: tasks.length, max: MAX_TASKS })} · {t('schedules.tasks.noEditNote')}
          </Text>
        </Stack>
        {tasks.length > 0 ? addButton : null}
      </Group>
      {full && canEdit ? (
        <Text size="sm" c="dimmed">
          {t('schedules.tasks.full', { max: MAX_TASKS })}
        </Text>
      ) : null}
      {tasks.length === 0 ? (
        <EmptyState icon={<IconListCheck />} title={t('schedules.tasks.emptyTitle')} description={t('schedules.tasks.emptyText')} action={addButton} />
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('schedules.tasks.title')}>
          {tasks.map((task, i) => (
            <Card key={task.id} withBorder component="li" padding="sm" aria-label={t('schedules.tasks.step', { n: i + 1 })} data-action={task.action}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600}>
                      {t('schedules.tasks.step', { n: i + 1 })} · {t(`schedules.tasks.actions.${task.action}`)}
                    </Text>
                    {task.is_queued ? (
                      <Badge color="blue" variant="light">
                        {t('schedules.tasks.queued')}
                      </Badge>
                    ) : null}
                  </Group>
                  <TaskPayload task={task} />
                  <Text size="sm" c="dimmed">
                    {task.time_offset > 0 ? t('schedules.tasks.afterOffset', { duration: formatDuration(task.time_offset, i18n.language) }) : t('schedules.tasks.immediately')} ·{' '}
                    {task.continue_on_failure ? t('schedules.tasks.continueOnFailure') : t('schedules.tasks.stopsOnFailure')}
                  </Text>
                </Stack>
                {canEdit ? (
                  <ActionIcon variant="subtle" color="red" onClick={() => removeTask.ask({ task, n: i + 1 })} aria-label={t('schedules.tasks.deleteOf', { n: i + 1 })}>
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                ) : null}
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {adding ? <AddTaskDialog serverId={serverId} scheduleId={scheduleId} granted={granted} onClose={() => setAdding(false)} /> : null}
      {removeTask.dialog}
    </Stack>
  );
};
