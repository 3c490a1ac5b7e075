import { Injectable } from '@nestjs/common';
import { DaemonGateway, PowerAction } from 'src/modules/daemon-gateway/daemon.gateway';
import { ScheduledBackups } from 'src/modules/schedules/scheduled-backups';
import type { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import type { ServerSnapshot } from 'src/modules/servers/server-context';

/** Carries out one task; any throw is the task's failure. */
@Injectable()
export class ScheduleTaskExecutor {
  constructor(
    private readonly daemon: DaemonGateway,
    private readonly backups: ScheduledBackups,
  ) {}

  async execute(server: ServerSnapshot, task: Pick<ScheduleTaskEntity, 'action' | 'payload'>): Promise<void> {
    switch (task.action) {
      case 'command':
        await this.daemon.commands(server.node, server.uuid, [task.payload]);
        return;
      case 'power':
        // The payload was checked against POWER_ACTIONS when the task was created.
        await this.daemon.power(server.node, server.uuid, task.payload as PowerAction);
        return;
      case 'backup':
        await this.backups.create(server, task.payload);
        return;
    }
  }
}
