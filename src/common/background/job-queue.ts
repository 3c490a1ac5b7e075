import { hostname } from 'node:os';
import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { type Db, PgBoss } from 'pg-boss';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';
import { errorMessage } from 'src/common/errors/error-message';

/** This process, as jobs record who ran them (`output.ranBy`) and schedules who claimed a run. */
export const THIS_PROCESS = `${hostname()}:${process.pid}`.slice(0, 191);
/** The PostgreSQL schema pg-boss keeps its queues in (its own tables, created and migrated by pg-boss). */
export const JOB_SCHEMA = 'pgboss';
/** How long shutdown waits for the jobs this process is running before it goes on. */
const STOP_GRACE_MS = 10_000;
/**
 * A job whose process stops sending heartbeats (killed, frozen) is failed after this (pg-boss's least),
 * found by the monitor pass every MONITOR_SECONDS, for another process to run the next one.
 */
const HEARTBEAT_SECONDS = 10;
const MONITOR_SECONDS = 10;
/** Finished jobs are kept this long (for `pgboss.job` queries), then deleted by pg-boss's maintenance. */
const KEEP_SECONDS = 3600;

/** Work done about every `everyMs` by one process of the fleet at a time. */
interface PeriodicJob {
  /** The queue's name: letters, digits, `.`, `_`, `-`. */
  name: string;
  everyMs: number;
  run: () => Promise<void>;
  /**
   * One job holds the work for this long: its process runs it at each interval's start until the
   * shift ends (or the process stops), then the job waiting behind it is taken by any process. For
   * work whose runs remember the last one (the usage sampler's counters and alerts).
   */
  shiftMs?: number;
}

/** Work done once per job sent, by whichever process takes it (not tried again when it throws). */
interface JobHandler<T extends object> {
  name: string;
  /** What it resolves to is kept as the job's output (`pgboss.job.output`), beside `ranBy`. */
  run: (data: T) => Promise<object | void>;
}

/** TypeORM's node-postgres pool, as pg-boss uses it. */
interface SessionPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

const seconds = (ms: number): number => Math.max(1, Math.round(ms / 1000));

/**
 * The panel's background work as jobs on a PostgreSQL queue (pg-boss, in the `pgboss` schema of the
 * panel's own database), drained by every panel process: nothing is special about any process, and one
 * that dies mid-job has its job failed after HEARTBEAT_SECONDS without a heartbeat, for the next turn.
 *
 * - `every`: periodic work (log retention, stale uploads, transfer sweep, webhook backstop). Each
 *   process offers one job per interval (`sendThrottled`: the queue keeps one per time slot, whoever
 *   offers it), the queue's `stately` policy lets one run at a time fleet-wide with at most one
 *   waiting, and whichever process polls first runs it. With `shiftMs` (the usage sampler) a job is a
 *   shift of runs in one process, and the job waiting behind it takes over when it ends or its
 *   process dies.
 * - `handle`/`send`: a job per piece of work (a webhook delivery), with its data and the time it is due;
 *   not tried again by the queue when it fails (the work keeps its own retries, as deliveries do).
 *
 * Started on first use when SCHEDULER_ENABLED (tests call the jobs themselves), on PostgreSQL: pg-boss
 * runs its statements on the panel's own pool (each one a statement or a single transaction, so
 * through PgBouncer in transaction mode too; no LISTEN). The embedded database serves one process
 * (EmbeddedDatabaseLock), so there is nothing to share: its work runs on timers in that process, as
 * it did before the queue (measured: pg-boss's polls and upkeep in WebAssembly PostgreSQL took an
 * idle embedded panel from 10 to 65 CPU ticks a minute). Should the queue not start (its schema not
 * writable), the periodic work runs on a timer in each process instead (IntervalJob), which is safe
 * because every job's own work is guarded (advisory locks, row claims, conditional updates).
 */
@Injectable()
export class JobQueue implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private boss?: Promise<PgBoss | null>;
  private readonly offers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private stopping = false;

  constructor(
    private readonly config: AppConfigService,
    private readonly dataSource: DataSource,
  ) {}

  /** Whether jobs go through the queue: the scheduler is on, on PostgreSQL. */
  get enabled(): boolean {
    return this.config.scheduler.enabled && this.config.db.kind === 'postgres';
  }

  /**
   * Runs `job.run` about every `job.everyMs`, by one process of the fleet at a time; false when the
   * queue cannot take it (scheduler off, queue not started), for the caller to run it on a timer.
   */
  async every(job: PeriodicJob): Promise<boolean> {
    if (!this.enabled || this.stopping) {
      return false;
    }
    const boss = await this.started();
    if (!boss || this.stopping) {
      return false;
    }
    const every = seconds(job.everyMs);
    const shift = job.shiftMs ? seconds(job.shiftMs) : 0;
    // Each process offers each interval's job: the queue keeps one a slot, or (shifts) one waiting.
    const offer = (): Promise<unknown> =>
      (shift ? boss.send(job.name, null) : boss.sendThrottled(job.name, null, null, every, 'every')).catch((e: unknown) =>
        this.logger.warn(`Could not offer the ${job.name} job: ${errorMessage(e)}`),
      );
    try {
      await boss.createQueue(job.name, {
        policy: 'stately',
        retryLimit: 0, // the next interval's job is the retry
        expireInSeconds: shift + Math.max(300, every * 10),
        heartbeatSeconds: HEARTBEAT_SECONDS,
        deleteAfterSeconds: KEEP_SECONDS,
        retentionSeconds: Math.max(KEEP_SECONDS, every * 2),
      });
      // This interval's job first, so that the first poll (at once) finds it.
      await offer();
      // Half the interval (30 s at most; a shift's next job 5 s): a job offered is taken within that by one process or another.
      const pollingIntervalSeconds = Math.min(shift ? 5 : 30, Math.max(0.5, every / 2));
      await boss.work(job.name, { pollingIntervalSeconds }, async () => {
        await (job.shiftMs ? this.runShift(job, job.shiftMs) : job.run());
        return { ranBy: THIS_PROCESS };
      });
    } catch (e) {
      this.logger.error(`Could not set up the ${job.name} job: ${errorMessage(e)}`);
      return false;
    }
    this.offers.add(setInterval(() => void offer(), job.everyMs));
    return true;
  }

  /** Takes the jobs `send` puts on `handler.name`'s queue, in this process as in every other. */
  handle<T extends object>(handler: JobHandler<T>): void {
    if (!this.enabled) {
      return;
    }
    void (async () => {
      const boss = await this.started();
      if (!boss || this.stopping) {
        return;
      }
      await boss.createQueue(handler.name, {
        retryLimit: 0,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        deleteAfterSeconds: KEEP_SECONDS,
      });
      await boss.work<T>(handler.name, { pollingIntervalSeconds: 2 }, async ([job]) => ({ ranBy: THIS_PROCESS, ...(await handler.run(job.data)) }));
    })().catch((e: unknown) => this.logger.error(`Could not take jobs of ${handler.name}: ${errorMessage(e)}`));
  }

  /**
   * Puts a job on a queue `handle` serves, to be taken from `startAfter` on; false when the queue is not
   * running here (scheduler off, or it failed to start), for the caller's own fallback.
   */
  async send(name: string, data: object, options: { startAfter?: Date } = {}): Promise<boolean> {
    if (!this.enabled || this.stopping) {
      return false;
    }
    const boss = await this.started();
    if (!boss) {
      return false;
    }
    await boss.send(name, data, { startAfter: options.startAfter });
    return true;
  }

  /**
   * Each queue's jobs by state, as pg-boss last counted them (its monitor, every MONITOR_SECONDS):
   * ready (due, waiting for a process), deferred (due later), active, failed (kept for an hour).
   * Empty where the queue is not running in this process.
   */
  async counts(): Promise<{ queue: string; ready: number; deferred: number; active: number; failed: number }[]> {
    const boss = this.enabled && this.boss ? await this.boss : null;
    if (!boss) {
      return [];
    }
    return (await boss.getQueues()).map((q) => ({ queue: q.name, ready: q.readyCount, deferred: q.deferredCount, active: q.activeCount, failed: q.failedCount }));
  }

  /** No more offers once the app begins to close (when IntervalJob's own timers stop); shifts end. */
  onModuleDestroy(): void {
    this.stopping = true;
    for (const timer of this.offers) {
      clearInterval(timer);
    }
    this.offers.clear();
    for (const wake of this.sleepers) {
      wake();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.onModuleDestroy();
    const boss = this.boss ? await this.boss : null;
    if (boss) {
      // Waits for this process's running jobs (bounded), before the database closes.
      await boss.stop({ graceful: true, close: true, timeout: STOP_GRACE_MS }).catch((e: unknown) => this.logger.warn(`Job queue stop: ${errorMessage(e)}`));
    }
  }

  /** Runs `job` at the start of each interval until `shiftMs` has passed or the process stops. */
  private async runShift(job: PeriodicJob, shiftMs: number): Promise<void> {
    const ends = Date.now() + shiftMs;
    while (!this.stopping) {
      await job.run();
      const wait = job.everyMs - (Date.now() % job.everyMs);
      if (Date.now() + wait >= ends) {
        return;
      }
      await this.sleep(wait);
    }
  }

  /** Waits `ms`, or less when the process begins to stop. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** pg-boss, started once (its schema made or migrated under its own lock); null when it cannot start. */
  private started(): Promise<PgBoss | null> {
    this.boss ??= this.start().catch((e: unknown) => {
      this.logger.error(`The job queue did not start; periodic work runs on timers in this process: ${errorMessage(e)}`);
      return null;
    });
    return this.boss;
  }

  private async start(): Promise<PgBoss> {
    const boss = new PgBoss({
      db: this.pooledDatabase(),
      schema: JOB_SCHEMA,
      schedule: false, // the panel's own schedules have their own runner (src/modules/schedules)
      // Each process in pg-boss's registry (`pgboss.instance`: host, pid, the queues it works), refreshed this often.
      instanceName: 'hatchery-panel',
      instanceHeartbeatSeconds: 10,
      flowIntervalSeconds: 60, // no job here waits on another: pg-boss's flow monitor has nothing to do
      monitorIntervalSeconds: MONITOR_SECONDS,
      superviseIntervalSeconds: MONITOR_SECONDS,
      openTelemetry: { enabled: false },
    });
    boss.on('error', (e: unknown) => this.logger.error(`Job queue: ${errorMessage(e)}`));
    boss.on('warning', (w: unknown) => this.logger.warn(`Job queue: ${errorMessage(w)}`));
    await boss.start();
    return boss;
  }

  /** PostgreSQL: pg-boss's statements on the panel's pool. */
  private pooledDatabase(): Db {
    const pool = this.pool();
    return { executeSql: (text, values) => pool.query(text, values) };
  }

  private pool(): SessionPool {
    return (this.dataSource.driver as unknown as { master: SessionPool }).master;
  }
}
