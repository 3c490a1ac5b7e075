import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ServerActivityLog } from 'src/modules/servers/server-activity';

/** Server activity events of schedules: what users did, and what the runner did. */
export const ScheduleEvent = {
  CREATE: 'server.schedule.create',
  UPDATE: 'server.schedule.update',
  DELETE: 'server.schedule.delete',
  /** A user asked for a forced run. */
  EXECUTE: 'server.schedule.execute',
  TASK_CREATE: 'server.task.create',
  TASK_DELETE: 'server.task.delete',
  RUN_START: 'server.schedule.run.start',
  RUN_SKIP: 'server.schedule.run.skip',
  RUN_FINISH: 'server.schedule.run.finish',
  /** A claim whose holder stopped checking in (a crashed process) was released. */
  RUN_EXPIRE: 'server.schedule.run.expire',
  TASK_SUCCESS: 'server.schedule.task.success',
  TASK_FAIL: 'server.schedule.task.fail',
} as const;
type ScheduleEventName = (typeof ScheduleEvent)[keyof typeof ScheduleEvent];

/** Schedule events typed, written through the server activity log (entries of the runner carry no actor and `via: schedule`). */
@Injectable()
export class ScheduleActivityLog {
  constructor(private readonly log: ServerActivityLog) {}

  byUser(serverId: string, actor: Actor, event: ScheduleEventName, metadata: Record<string, unknown>, manager?: EntityManager): Promise<void> {
    return this.log.byUser(serverId, actor, event, metadata, { manager });
  }

  byRunner(serverId: string, event: ScheduleEventName, metadata: Record<string, unknown>): Promise<void> {
    return this.log.bySystem(serverId, 'schedule', event, metadata);
  }
}
