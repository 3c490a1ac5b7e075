import { cronString } from 'src/modules/schedules/cron-expression';
import type { ScheduleTaskEntity, TaskAction } from 'src/modules/schedules/schedule-task.entity';
import type { ScheduleEntity } from 'src/modules/schedules/schedule.entity';

export class ScheduleTaskResponseDto {
  id!: string;
  sequence_id!: number;
  action!: TaskAction;
  payload!: string;
  time_offset!: number;
  continue_on_failure!: boolean;
  is_queued!: boolean;
  created_at!: string;
  updated_at!: string;
}

export class ScheduleResponseDto {
  id!: string;
  name!: string;
  /** minute hour day-of-month month day-of-week, evaluated in UTC. */
  cron!: string;
  is_active!: boolean;
  is_processing!: boolean;
  only_when_online!: boolean;
  last_run_at!: string | null;
  next_run_at!: string;
  created_at!: string;
  updated_at!: string;
  tasks!: ScheduleTaskResponseDto[];
}

export const scheduleCron = (s: ScheduleEntity) => ({
  minute: s.cronMinute,
  hour: s.cronHour,
  day_of_month: s.cronDayOfMonth,
  month: s.cronMonth,
  day_of_week: s.cronDayOfWeek,
});

export const toTaskResponse = (t: ScheduleTaskEntity): ScheduleTaskResponseDto => ({
  id: t.id,
  sequence_id: t.sequenceId,
  action: t.action,
  payload: t.payload,
  time_offset: t.timeOffset,
  continue_on_failure: t.continueOnFailure,
  is_queued: t.isQueued,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

export const toScheduleResponse = (s: ScheduleEntity, tasks: ScheduleTaskEntity[]): ScheduleResponseDto => ({
  id: s.id,
  name: s.name,
  cron: cronString(scheduleCron(s)),
  is_active: s.isActive,
  is_processing: s.isProcessing,
  only_when_online: s.onlyWhenOnline,
  last_run_at: s.lastRunAt ? s.lastRunAt.toISOString() : null,
  next_run_at: s.nextRunAt.toISOString(),
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
  tasks: tasks.map(toTaskResponse),
});
