import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { JobQueue } from 'src/common/background/job-queue';
import { AppConfigService } from 'src/config/app-config.service';
import { errorMessage } from 'src/common/errors/error-message';

/**
 * A job the panel runs every `everyMs` when SCHEDULER_ENABLED (off by default under NODE_ENV=test, where
 * tests call `tick`). Given the JobQueue, it is fleet work (transfer timeouts, log retention, stale
 * uploads, the usage sampler): one job per interval on the PostgreSQL queue, run by whichever process
 * takes it. Without it (the schedules' tick, which every process runs to claim its share; the embedded
 * database's vacuum), or when the queue cannot take it, it runs on a timer in each process, registered
 * with Nest's SchedulerRegistry and removed on shutdown. A tick never throws (a failure is logged and
 * the next tick tries again) and never overlaps itself in one process: a tick that finds the previous
 * one still running returns at once. What must not run twice across processes is still guarded by the
 * job's own business (claims, conditional updates, an advisory lock).
 */
export abstract class IntervalJob implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger: Logger;
  private readonly enabled: boolean;
  private running = false;
  private destroyed = false;
  /** Whether the job runs on the queue (not on a timer in this process). */
  protected onQueue = false;

  /**
   * @param name the interval's name in the registry
   * @param label what the failure log line calls one run ("Schedule tick" → "Schedule tick failed: ...")
   * @param options.applies false where the job has nothing to do (a database kind it is not for): then it is never registered
   * @param options.queue where the job is fleet work, the queue that runs it
   * @param options.shiftMs on the queue, hold the job this long in one process (its runs keep what they learn in memory)
   */
  protected constructor(
    private readonly name: string,
    private readonly label: string,
    private readonly everyMs: number,
    private readonly registry: SchedulerRegistry,
    config: AppConfigService,
    private readonly options: { applies?: boolean; queue?: JobQueue; shiftMs?: number } = {},
  ) {
    this.logger = new Logger(new.target.name);
    this.enabled = config.scheduler.enabled && (options.applies ?? true);
  }

  /** One run of the job; its errors are the tick's to log. */
  protected abstract run(): Promise<void>;

  onApplicationBootstrap(): void {
    if (!this.enabled) {
      return;
    }
    const { queue, shiftMs } = this.options;
    if (!queue) {
      this.onTimer();
      return;
    }
    // Not awaited: the panel listens while the queue starts (on a new database it makes its schema first).
    void queue.every({ name: this.name, everyMs: this.everyMs, shiftMs, run: () => this.tick() }).then((queued) => {
      this.onQueue = queued;
      if (!queued && !this.destroyed) {
        this.onTimer();
      }
    });
  }

  private onTimer(): void {
    this.registry.addInterval(
      this.name,
      setInterval(() => void this.tick(), this.everyMs),
    );
  }

  onModuleDestroy(): void {
    this.destroyed = true;
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
      this.logger.error(`${this.label} failed: ${errorMessage(e)}`);
    } finally {
      this.running = false;
    }
  }
}
