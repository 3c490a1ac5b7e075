import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { ServersRepository } from 'src/modules/servers/servers.repository';
import { actorActivity } from 'src/modules/servers/server-activity';

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

/** Entries written by the runner carry no actor and `via: schedule`. */
const RUNNER_VIA = 'schedule';

@Injectable()
export class ScheduleActivityLog {
  constructor(
    private readonly servers: ServersRepository,
    private readonly clock: Clock,
  ) {}

  async byUser(serverId: string, actor: Actor, event: ScheduleEventName, metadata: Record<string, unknown>, manager?: EntityManager): Promise<void> {
    await this.servers.recordActivity(
      actorActivity(serverId, actor, event, metadata, this.clock.now()),
      manager,
    );
  }

  async byRunner(serverId: string, event: ScheduleEventName, metadata: Record<string, unknown>): Promise<void> {
    await this.servers.recordActivity({
      serverId,
      actorId: null,
      actorUsername: null,
      event,
      metadata,
      ip: null,
      via: RUNNER_VIA,
      createdAt: this.clock.now(),
    });
  }
}
