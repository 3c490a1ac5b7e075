import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { nextRunAfter } from 'src/modules/schedules/cron-expression';
import { scheduleCron } from 'src/modules/schedules/dto/schedule-response.dto';
import { ScheduleActivityLog, ScheduleEvent } from 'src/modules/schedules/schedule-activity';
import type { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import { ScheduleTaskExecutor } from 'src/modules/schedules/schedule-task.executor';
import type { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import { ScheduleError } from 'src/modules/schedules/schedules.errors';
import { SchedulesRepository } from 'src/modules/schedules/schedules.repository';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { withinGrace } from 'src/common/shutdown/within-grace';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import { ServerContextResolver } from 'src/modules/servers/server-context';
import { errorMessage } from 'src/common/errors/error-message';

/** `resume`: the rest of a run whose process died, after the last task it began. */
type RunTrigger = 'cron' | 'manual' | 'resume';

/** How a run ended: `failed` when any task failed, `interrupted` when the run lost its claim or the process stopped. */
type RunStatus = 'completed' | 'failed' | 'interrupted';

interface ClaimedRun {
  schedule: ScheduleEntity;
  token: string;
  trigger: RunTrigger;
}

interface RunOutcome {
  status: RunStatus;
  succeeded: number;
  failed: number;
  not_run: number;
  reason?: string;
}

/** only_when_online: the daemon states in which a server counts as online. */
const ONLINE_STATES = new Set(['running', 'starting']);
const STATUS_TIMEOUT_MS = 10_000;
/** On shutdown, how long runs get to record how they ended once their waits are cut short. */
const SHUTDOWN_GRACE_MS = 15_000;

const errorOf = (e: unknown): Record<string, unknown> =>
  e instanceof AppException ? { error: e.message, code: e.code, status: e.status } : { error: errorMessage(e) };

/**
 * Runs schedules in this process, exactly once across every process on the database: a run first
 * claims its schedule (a row lock with SKIP LOCKED, then is_processing and a claim token), and
 * only the claim's holder runs it, checks in while it runs and releases it. Before each task it records
 * the task's sequence_id (run_progress). A holder that stops checking in (a crash) loses the claim
 * after SCHEDULER_STALE_CLAIM_SECONDS, and the next claim, by any process, resumes the run after the
 * last task it began: no task runs twice, none is dropped but the one a crash cut (which may or may
 * not have reached the node; the activity log shows where the run resumed).
 */
@Injectable()
export class ScheduleRunner implements OnModuleDestroy {
  private readonly logger = new Logger(ScheduleRunner.name);
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly servers: ServerContextResolver,
    private readonly executor: ScheduleTaskExecutor,
    private readonly daemon: DaemonGateway,
    private readonly activity: ScheduleActivityLog,
    private readonly clock: Clock,
    private readonly config: AppConfigService,
    private readonly metrics: PanelMetrics,
  ) {}

  /** Claims every due schedule and runs it; resolves with the number claimed once those runs have ended. */
  async runDue(): Promise<number> {
    const runs = await this.startDue();
    await Promise.all(runs);
    return runs.length;
  }

  /** Claims every due schedule and starts its run without waiting for it (what the periodic tick does). */
  async startDue(): Promise<Promise<void>[]> {
    if (this.stopping.signal.aborted) {
      return [];
    }
    const now = this.clock.now();
    await this.expireStaleClaims(now);
    const runs: Promise<void>[] = [];
    const { batchSize, maxRunning } = this.config.scheduler;
    for (;;) {
      // Up to SCHEDULER_MAX_RUNNING under way: the rest of a storm is left to the other processes.
      const room = Math.min(batchSize, maxRunning - this.inFlight.size);
      if (room <= 0) {
        return runs;
      }
      const claimed = await this.claimDue(now, room);
      runs.push(...claimed.map((run) => this.launch(run)));
      if (claimed.length < room) {
        return runs;
      }
    }
  }

  /**
   * A forced run: claims the schedule now, whatever its cron time or state, and
   * starts it; `claimed` runs once the claim is held, before the run writes anything.
   */
  async runNow(schedule: ScheduleEntity, claimed?: () => Promise<void>): Promise<void> {
    const token = randomUUID();
    const now = this.clock.now();
    if (!(await this.schedules.claimOne(schedule.id, token, now, this.staleBefore(now)))) {
      throw new AppException(ScheduleError.ALREADY_RUNNING);
    }
    try {
      await claimed?.();
    } catch (e) {
      await this.schedules.releaseClaim(schedule.id, token, null);
      throw e;
    }
    void this.launch({ schedule, token, trigger: 'manual' });
  }

  /** Resolves once no run of this process is in progress (tests, shutdown). */
  async whenIdle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
    }
  }

  /** Cuts every wait short, lets the runs record how they ended and release their claims. */
  async onModuleDestroy(): Promise<void> {
    this.stopping.abort(new Error('the panel is shutting down'));
    await withinGrace(this.whenIdle(), SHUTDOWN_GRACE_MS);
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - this.config.scheduler.staleClaimMs);
  }

  private async expireStaleClaims(now: Date): Promise<void> {
    const released = await this.schedules.releaseStaleClaims(this.staleBefore(now));
    for (const claim of released) {
      this.logger.warn(`Released the stale claim on schedule ${claim.id} (held since ${claim.processingSince.toISOString()})`);
      await this.activity.byRunner(claim.serverId, ScheduleEvent.RUN_EXPIRE, {
        schedule_id: claim.id,
        name: claim.name,
        processing_since: claim.processingSince.toISOString(),
        // The next claim resumes the run after this task (0: before the first).
        ...(claim.progress === null ? {} : { resumes_after_sequence: claim.progress }),
      });
    }
  }

  /**
   * One batch: lock rows nobody holds that are due or have a run to resume, and in the same transaction
   * claim them and move a due one's next_run_at on. Resumed runs first: they are late already.
   */
  private claimDue(now: Date, batchSize: number): Promise<ClaimedRun[]> {
    return this.schedules.transaction(async (manager) => {
      const claimed: ClaimedRun[] = [];
      for (const schedule of await this.schedules.lockResumable(this.staleBefore(now), batchSize, manager)) {
        const token = randomUUID();
        await this.schedules.markClaimed(schedule.id, { token, now }, manager);
        claimed.push({ schedule: { ...schedule, isProcessing: true }, token, trigger: 'resume' });
      }
      const due = claimed.length < batchSize ? await this.schedules.lockDue(now, this.staleBefore(now), batchSize - claimed.length, manager) : [];
      for (const schedule of due) {
        let nextRunAt: Date;
        try {
          nextRunAt = nextRunAfter(scheduleCron(schedule), now);
        } catch (e) {
          // Checked when saved, so only a cron library that changed its mind gets here: pause rather than retry forever.
          this.logger.error(`Schedule ${schedule.id} has a cron that no longer yields a date; pausing it: ${(e as Error).message}`);
          await this.schedules.update(schedule.id, { isActive: false }, manager);
          continue;
        }
        const token = randomUUID();
        await this.schedules.markClaimed(schedule.id, { token, now, nextRunAt }, manager);
        claimed.push({ schedule: { ...schedule, isProcessing: true, nextRunAt }, token, trigger: 'cron' });
      }
      return claimed;
    });
  }

  private launch(run: ClaimedRun): Promise<void> {
    const promise: Promise<void> = this.execute(run)
      .catch((e: unknown) => this.logger.error(`Schedule ${run.schedule.id} run failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`))
      .finally(() => this.inFlight.delete(promise));
    this.inFlight.add(promise);
    return promise;
  }

  private async execute({ schedule, token, trigger }: ClaimedRun): Promise<void> {
    const heartbeat = setInterval(() => {
      this.schedules.touchClaim(schedule.id, token, this.clock.now()).catch(() => undefined);
    }, Math.max(1000, Math.floor(this.config.scheduler.staleClaimMs / 3)));
    heartbeat.unref();
    let ranAt: Date | null = null;
    let resumable = false;
    try {
      const [server, all] = await Promise.all([this.servers.forRunner(schedule.serverId), this.schedules.tasksOf(schedule.id)]);
      // A resumed run goes on after the last task its process began (that one may have reached the node).
      const resumedAfter = trigger === 'resume' ? (schedule.runProgress ?? 0) : null;
      const tasks = resumedAfter === null ? all : all.filter((t) => t.sequenceId > resumedAfter);
      // A schedule with no tasks has nothing to run; its cron time has been consumed all the same.
      if (!server || tasks.length === 0) {
        return;
      }
      const about = { schedule_id: schedule.id, name: schedule.name, trigger, ...(resumedAfter === null ? {} : { resumed_after_sequence: resumedAfter }) };
      const skip = await this.skipReason(server, schedule);
      if (skip) {
        await this.activity.byRunner(server.id, ScheduleEvent.RUN_SKIP, { ...about, ...skip });
        this.metrics.scheduleRun('skipped');
        return;
      }
      await this.activity.byRunner(server.id, ScheduleEvent.RUN_START, { ...about, tasks: tasks.length });
      const outcome = await this.runTasks(server, schedule, tasks, token);
      ranAt = this.clock.now();
      // Stopped by this process's shutdown (a restart): another process goes on with the rest.
      resumable = outcome.status === 'interrupted' && outcome.reason === 'shutdown';
      await this.activity.byRunner(server.id, ScheduleEvent.RUN_FINISH, { ...about, ...outcome });
      this.metrics.scheduleRun(outcome.status);
    } finally {
      clearInterval(heartbeat);
      await this.schedules.releaseClaim(schedule.id, token, ranAt, resumable);
    }
  }

  /** Why this run should not go ahead, or null: a server that cannot run, or (only_when_online) one that is not running. */
  private async skipReason(server: ServerSnapshot, schedule: ScheduleEntity): Promise<Record<string, unknown> | null> {
    if (server.suspended) {
      return { reason: 'server_suspended' };
    }
    // Moving to another node (docs/admin-guide.md#transfers): the server is not to be used meanwhile.
    if (server.transferring) {
      return { reason: 'server_transferring' };
    }
    if (server.status !== null) {
      return { reason: 'server_not_ready', server_status: server.status };
    }
    if (!schedule.onlyWhenOnline) {
      return null;
    }
    let state: string;
    try {
      state = (await this.daemon.serverDetails(server.node, server.uuid, STATUS_TIMEOUT_MS)).state;
    } catch (e) {
      return { reason: 'server_state_unknown', ...errorOf(e) };
    }
    return ONLINE_STATES.has(state) ? null : { reason: 'server_offline', state };
  }

  /** Ascending sequence_id, each after its time_offset; a failure stops the rest unless the task says continue. */
  private async runTasks(server: ServerSnapshot, schedule: ScheduleEntity, tasks: ScheduleTaskEntity[], token: string): Promise<RunOutcome> {
    let succeeded = 0;
    let failed = 0;
    for (const [index, planned] of tasks.entries()) {
      const interrupted = (reason: string): RunOutcome => ({ status: 'interrupted', succeeded, failed, not_run: tasks.length - index, reason });
      await this.schedules.setQueued(planned.id, true);
      if (planned.timeOffset > 0) {
        try {
          await this.clock.sleep(planned.timeOffset * 1000, this.stopping.signal);
        } catch {
          return interrupted('shutdown');
        }
      }
      // The task about to begin is recorded first: a process that dies from here on is not followed by a
      // second run of it (it may have reached the node), but by the next one's.
      if (!(await this.schedules.touchClaim(schedule.id, token, this.clock.now(), planned.sequenceId))) {
        return interrupted('claim_lost');
      }
      // Deleted while the run waited: it no longer exists to run.
      const task = await this.schedules.findTask(schedule.id, planned.id);
      if (!task) {
        continue;
      }
      const about = { schedule_id: schedule.id, task_id: task.id, sequence_id: task.sequenceId, action: task.action, payload: task.payload };
      try {
        await this.executor.execute(server, task);
        succeeded++;
        await this.activity.byRunner(server.id, ScheduleEvent.TASK_SUCCESS, about);
      } catch (e) {
        failed++;
        await this.activity.byRunner(server.id, ScheduleEvent.TASK_FAIL, { ...about, continue_on_failure: task.continueOnFailure, ...errorOf(e) });
        if (!task.continueOnFailure) {
          return { status: 'failed', succeeded, failed, not_run: tasks.length - index - 1 };
        }
      } finally {
        await this.schedules.setQueued(task.id, false);
      }
    }
    return { status: failed > 0 ? 'failed' : 'completed', succeeded, failed, not_run: 0 };
  }
}
