import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { AppConfigService } from 'src/config/app-config.service';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';

/**
 * The periodic tick: every SCHEDULER_TICK_SECONDS it asks the runner to claim and start what is
 * due. Every process ticks; the runner's claims make each due run happen once across them. A tick
 * waits for the claims only, not for the runs.
 */
@Injectable()
export class SchedulesCron extends IntervalJob {
  static readonly JOB = 'schedules.run-due';

  constructor(
    private readonly runner: ScheduleRunner,
    registry: SchedulerRegistry,
    config: AppConfigService,
  ) {
    super(SchedulesCron.JOB, 'Schedule tick', config.scheduler.tickMs, registry, config);
  }

  protected async run(): Promise<void> {
    const runs = await this.runner.startDue();
    if (runs.length > 0) {
      this.logger.log(`Started ${runs.length} scheduled run(s)`);
    }
  }
}
