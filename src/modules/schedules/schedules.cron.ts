import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfigService } from 'src/config/app-config.service';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';

/**
 * The periodic tick: every SCHEDULER_TICK_SECONDS it asks the runner to claim and start what is
 * due. Every process ticks; the runner's claims make each due run happen once across them.
 * Off when SCHEDULER_ENABLED is false (the default under NODE_ENV=test, where tests call the runner).
 */
@Injectable()
export class SchedulesCron implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly JOB = 'schedules.run-due';
  private readonly logger = new Logger(SchedulesCron.name);
  private ticking = false;

  constructor(
    private readonly runner: ScheduleRunner,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfigService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.scheduler.enabled) {
      return;
    }
    this.registry.addInterval(
      SchedulesCron.JOB,
      setInterval(() => void this.tick(), this.config.scheduler.tickMs),
    );
  }

  onModuleDestroy(): void {
    if (this.registry.doesExist('interval', SchedulesCron.JOB)) {
      this.registry.deleteInterval(SchedulesCron.JOB);
    }
  }

  /** Never throws and never overlaps itself; it waits for the claims only, not for the runs. */
  async tick(): Promise<void> {
    if (this.ticking) {
      return;
    }
    this.ticking = true;
    try {
      const runs = await this.runner.startDue();
      if (runs.length > 0) {
        this.logger.log(`Started ${runs.length} scheduled run(s)`);
      }
    } catch (e) {
      this.logger.error(`Schedule tick failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.ticking = false;
    }
  }
}
