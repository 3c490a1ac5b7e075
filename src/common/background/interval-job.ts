import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfigService } from 'src/config/app-config.service';

/**
 * A job the panel runs in-process every `everyMs` (schedules, transfer timeouts, log retention, stale
 * uploads): registered with Nest's SchedulerRegistry at bootstrap when SCHEDULER_ENABLED (off by default
 * under NODE_ENV=test, where tests call `tick`), removed on shutdown. A tick never throws (a failure is
 * logged and the next tick tries again) and never overlaps itself in one process: a tick that finds the
 * previous one still running returns at once. What must not run twice across processes is the job's own
 * business (claims, conditional updates, an advisory lock).
 */
export abstract class IntervalJob implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger: Logger;
  private readonly enabled: boolean;
  private running = false;

  /**
   * @param name the interval's name in the registry
   * @param label what the failure log line calls one run ("Schedule tick" → "Schedule tick failed: ...")
   * @param applies false where the job has nothing to do (a database kind it is not for): then it is never registered
   */
  protected constructor(
    private readonly name: string,
    private readonly label: string,
    private readonly everyMs: number,
    private readonly registry: SchedulerRegistry,
    config: AppConfigService,
    applies = true,
  ) {
    this.logger = new Logger(new.target.name);
    this.enabled = config.scheduler.enabled && applies;
  }

  /** One run of the job; its errors are the tick's to log. */
  protected abstract run(): Promise<void>;

  onApplicationBootstrap(): void {
    if (!this.enabled) {
      return;
    }
    this.registry.addInterval(
      this.name,
      setInterval(() => void this.tick(), this.everyMs),
    );
  }

  onModuleDestroy(): void {
    if (this.registry.doesExist('interval', this.name)) {
      this.registry.deleteInterval(this.name);
    }
  }

  /** Never throws and never overlaps itself. */
  async tick(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = true;
    try {
      await this.run();
    } catch (e) {
      this.logger.error(`${this.label} failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.running = false;
    }
  }
}
