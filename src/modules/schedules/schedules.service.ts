import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { CronDto, CreateScheduleDto, UpdateScheduleDto } from 'src/modules/schedules/dto/schedule.dto';
import { scheduleCron, ScheduleResponseDto, ScheduleTaskResponseDto, toScheduleResponse, toTaskResponse } from 'src/modules/schedules/dto/schedule-response.dto';
import { CreateTaskDto } from 'src/modules/schedules/dto/task.dto';
import { CronNeverMatchesError, cronString, nextRunAfter } from 'src/modules/schedules/cron-expression';
import { ScheduleActivityLog, ScheduleEvent } from 'src/modules/schedules/schedule-activity';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import type { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import { ScheduleError } from 'src/modules/schedules/schedules.errors';
import { SchedulesRepository } from 'src/modules/schedules/schedules.repository';
import { requireTaskPermissions } from 'src/modules/schedules/task-permissions';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ServerError } from 'src/modules/servers/servers.errors';

/** Pterodactyl's default per-schedule task limit. */
const MAX_TASKS_PER_SCHEDULE = 10;

const cronColumns = (cron: CronDto): Pick<ScheduleEntity, 'cronMinute' | 'cronHour' | 'cronDayOfMonth' | 'cronMonth' | 'cronDayOfWeek'> => ({
  cronMinute: cron.minute,
  cronHour: cron.hour,
  cronDayOfMonth: cron.day_of_month,
  cronMonth: cron.month,
  cronDayOfWeek: cron.day_of_week,
});

/** Schedules and tasks of one server (docs/api.md#schedules); every change leaves an activity entry. */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly runner: ScheduleRunner,
    private readonly activity: ScheduleActivityLog,
    private readonly clock: Clock,
  ) {}

  async list(access: ServerAccess, page: Page): Promise<Paginated<ScheduleResponseDto>> {
    const [rows, total] = await this.schedules.findPage(access.server.id, page.skip, page.perPage);
    const tasks = await this.schedules.tasksBySchedule(rows.map((s) => s.id));
    return paginated(
      rows.map((s) => toScheduleResponse(s, tasks.get(s.id) ?? [])),
      total,
      page,
    );
  }

  async get(access: ServerAccess, id: string): Promise<ScheduleResponseDto> {
    return this.view(await this.find(access, id));
  }

  async create(access: ServerAccess, dto: CreateScheduleDto, actor: Actor): Promise<ScheduleResponseDto> {
    const now = this.clock.now();
    const schedule = await this.schedules.transaction(async (manager) => {
      const created = await this.schedules.insert(
        {
          serverId: access.server.id,
          name: dto.name,
          ...cronColumns(dto.cron),
          isActive: dto.is_active ?? true,
          onlyWhenOnline: dto.only_when_online ?? false,
          nextRunAt: this.nextRunAt(dto.cron, now),
          createdAt: now,
          updatedAt: now,
        },
        manager,
      );
      await this.activity.byUser(access.server.id, actor, ScheduleEvent.CREATE, { schedule_id: created.id, name: created.name, cron: cronString(dto.cron) }, manager);
      return created;
    });
    return toScheduleResponse(schedule, []);
  }

  /**
   * next_run_at is worked out again from now on every edit, so resuming a paused schedule waits for its next cron time.
   * An edit that can make the tasks run when they would not have (new cron, resumed, no longer only when online)
   * decides when their actions happen, so it needs the permissions of those actions, as creating them did.
   */
  async update(access: ServerAccess, id: string, dto: UpdateScheduleDto, actor: Actor): Promise<ScheduleResponseDto> {
    const existing = await this.find(access, id);
    const now = this.clock.now();
    const cron = dto.cron ?? {
      minute: existing.cronMinute,
      hour: existing.cronHour,
      day_of_month: existing.cronDayOfMonth,
      month: existing.cronMonth,
      day_of_week: existing.cronDayOfWeek,
    };
    const widensRuns =
      cronString(cron) !== cronString(scheduleCron(existing)) ||
      (dto.is_active === true && !existing.isActive) ||
      (dto.only_when_online === false && existing.onlyWhenOnline);
    if (widensRuns) {
      requireTaskPermissions(access, (await this.schedules.tasksOf(existing.id)).map((t) => t.action));
    }
    const changes: Partial<ScheduleEntity> = {
      ...(dto.name !== undefined ? { name: dto.name } : {}),
      ...cronColumns(cron),
      ...(dto.is_active !== undefined ? { isActive: dto.is_active } : {}),
      ...(dto.only_when_online !== undefined ? { onlyWhenOnline: dto.only_when_online } : {}),
      nextRunAt: this.nextRunAt(cron, now),
      updatedAt: now,
    };
    await this.schedules.transaction(async (manager) => {
      await this.schedules.update(existing.id, changes, manager);
      await this.activity.byUser(
        access.server.id,
        actor,
        ScheduleEvent.UPDATE,
        { schedule_id: existing.id, name: changes.name ?? existing.name, cron: cronString(cron), is_active: changes.isActive ?? existing.isActive },
        manager,
      );
    });
    return this.get(access, id);
  }

  async delete(access: ServerAccess, id: string, actor: Actor): Promise<void> {
    const existing = await this.find(access, id);
    await this.schedules.transaction(async (manager) => {
      await this.schedules.delete(existing.id, manager);
      await this.activity.byUser(access.server.id, actor, ScheduleEvent.DELETE, { schedule_id: existing.id, name: existing.name }, manager);
    });
  }

  /** Every task now, paused or not, whatever the cron time; the run goes on after the answer. */
  async forceRun(access: ServerAccess, id: string, actor: Actor): Promise<ScheduleResponseDto> {
    const schedule = await this.find(access, id);
    const { server } = access;
    if (server.suspended) {
      throw new AppException(ServerError.SUSPENDED);
    }
    if (server.status !== null) {
      throw new AppException(ScheduleError.SERVER_NOT_READY, { message: `The server cannot run schedules while its status is ${server.status}` });
    }
    const tasks = await this.schedules.tasksOf(schedule.id);
    if (tasks.length === 0) {
      throw new AppException(ScheduleError.NO_TASKS);
    }
    // Checked against the caller now, whoever wrote the tasks: running them by hand is doing what they do.
    requireTaskPermissions(access, tasks.map((t) => t.action));
    await this.runner.runNow(schedule, () =>
      this.activity.byUser(server.id, actor, ScheduleEvent.EXECUTE, { schedule_id: schedule.id, name: schedule.name }),
    );
    return this.get(access, id);
  }

  /** The next sequence_id under a lock on the schedule row, so two creations cannot take the same one. */
  async createTask(access: ServerAccess, scheduleId: string, dto: CreateTaskDto, actor: Actor): Promise<ScheduleTaskResponseDto> {
    requireTaskPermissions(access, [dto.action]);
    const task = await this.schedules.transaction(async (manager) => {
      const schedule = await this.lock(access, scheduleId, manager);
      const existing = await this.schedules.tasksOf(schedule.id, manager);
      if (existing.length >= MAX_TASKS_PER_SCHEDULE) {
        throw new AppException(ScheduleError.TASK_LIMIT_REACHED, {
          message: `A schedule may have at most ${MAX_TASKS_PER_SCHEDULE} tasks`,
          details: { limit: MAX_TASKS_PER_SCHEDULE },
        });
      }
      const now = this.clock.now();
      const created = await this.schedules.insertTask(
        {
          scheduleId: schedule.id,
          sequenceId: existing.length === 0 ? 1 : Math.max(...existing.map((t) => t.sequenceId)) + 1,
          action: dto.action,
          payload: dto.payload ?? '',
          timeOffset: dto.time_offset ?? 0,
          continueOnFailure: dto.continue_on_failure ?? false,
          createdAt: now,
          updatedAt: now,
        },
        manager,
      );
      await this.activity.byUser(
        access.server.id,
        actor,
        ScheduleEvent.TASK_CREATE,
        { schedule_id: schedule.id, task_id: created.id, action: created.action, payload: created.payload },
        manager,
      );
      return created;
    });
    return toTaskResponse(task);
  }

  async deleteTask(access: ServerAccess, scheduleId: string, taskId: string, actor: Actor): Promise<void> {
    await this.schedules.transaction(async (manager) => {
      const schedule = await this.lock(access, scheduleId, manager);
      const task = await this.schedules.findTask(schedule.id, taskId, manager);
      if (!task) {
        throw new AppException(ScheduleError.TASK_NOT_FOUND);
      }
      await this.schedules.deleteTask(task, manager);
      await this.activity.byUser(
        access.server.id,
        actor,
        ScheduleEvent.TASK_DELETE,
        { schedule_id: schedule.id, task_id: task.id, action: task.action, payload: task.payload },
        manager,
      );
    });
  }

  private async view(schedule: ScheduleEntity): Promise<ScheduleResponseDto> {
    return toScheduleResponse(schedule, await this.schedules.tasksOf(schedule.id));
  }

  private async find(access: ServerAccess, id: string): Promise<ScheduleEntity> {
    const schedule = await this.schedules.findOnServer(access.server.id, id);
    if (!schedule) {
      throw new AppException(ScheduleError.NOT_FOUND);
    }
    return schedule;
  }

  private async lock(access: ServerAccess, id: string, manager: EntityManager): Promise<ScheduleEntity> {
    const schedule = await this.schedules.lockOnServer(access.server.id, id, manager);
    if (!schedule) {
      throw new AppException(ScheduleError.NOT_FOUND);
    }
    return schedule;
  }

  /** The DTO already refused expressions that never match; this guards the stored ones on update. */
  private nextRunAt(cron: CronDto, now: Date): Date {
    try {
      return nextRunAfter(cron, now);
    } catch (e) {
      if (e instanceof CronNeverMatchesError) {
        throw new AppException(CommonError.VALIDATION_FAILED, { details: [{ field: 'cron', message: e.message }] });
      }
      throw e;
    }
  }
}
