import { Injectable } from '@nestjs/common';
import { DaemonGateway, PowerAction } from 'src/modules/daemon-gateway/daemon.gateway';
import { ScheduledBackups } from 'src/modules/schedules/scheduled-backups';
import type { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { ServerSnapshot } from 'src/modules/servers/server-context';

/** Carries out one task; any throw is the task's failure. */
@Injectable()
export class ScheduleTaskExecutor {
  constructor(
    private readonly daemon: DaemonGateway,
    private readonly backups: ScheduledBackups,
    private readonly activity: ServerActivityLog,
  ) {}

  async execute(server: ServerSnapshot, task: Pick<ScheduleTaskEntity, 'action' | 'payload'>): Promise<void> {
    switch (task.action) {
      case 'command':
        await this.daemon.commands(server.node, server.uuid, [task.payload]);
        return;
      case 'power':
        // The payload was checked against POWER_ACTIONS when the task was created.
        await this.daemon.power(server.node, server.uuid, task.payload as PowerAction);
        // As the power route logs it: the crash alerts read a stop here as no crash (docs/webhooks.md#alerts).
        await this.activity.bySystem(server.id, 'schedule', `server.power.${task.payload}`, { action: task.payload });
        return;
      case 'backup':
        await this.backups.create(server, task.payload);
        return;
    }
  }
}
