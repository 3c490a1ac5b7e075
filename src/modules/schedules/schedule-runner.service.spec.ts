import type { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { Logger } from '@nestjs/common';
import { abortReason, Clock } from 'src/common/clock';
import type { AppConfigService } from 'src/config/app-config.service';
import type { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { ScheduleActivityLog } from 'src/modules/schedules/schedule-activity';
import { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import type { ScheduleTaskEntity } from 'src/modules/schedules/schedule-task.entity';
import type { ScheduleTaskExecutor } from 'src/modules/schedules/schedule-task.executor';
import type { ScheduleEntity } from 'src/modules/schedules/schedule.entity';
import type { SchedulesRepository } from 'src/modules/schedules/schedules.repository';
import type { ServerContextResolver } from 'src/modules/servers/server-context';
import { strictMock } from 'test/utils/strict-mock';

const NOW = new Date('2025-01-15T10:05:00.000Z');

/** A clock whose waits last until the signal aborts (a long time_offset during which the panel stops). */
class WaitingClock extends Clock {
  readonly waits: number[] = [];
  private waiting: () => void = () => undefined;
  readonly waitStarted = new Promise<void>((resolve) => (this.waiting = resolve));

  now(): Date {
    return NOW;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.waits.push(ms);
    this.waiting();
    return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(abortReason(signal)), { once: true }));
  }
}

const schedule = (id: string, cron = '*/5 * * * *'): ScheduleEntity => {
  const [cronMinute, cronHour, cronDayOfMonth, cronMonth, cronDayOfWeek] = cron.split(' ');
  return {
    id,
    serverId: '3',
    name: `Schedule ${id}`,
    cronMinute,
    cronHour,
    cronDayOfMonth,
    cronMonth,
    cronDayOfWeek,
    isActive: true,
    isProcessing: false,
    onlyWhenOnline: false,
    claimToken: null,
    processingSince: null,
    claimedBy: null,
    runProgress: null,
    lastRunAt: null,
    nextRunAt: NOW,
    createdAt: NOW,
    updatedAt: NOW,
  };
};

const task = (id: string, sequenceId: number, payload: string, timeOffset = 0): ScheduleTaskEntity => ({
  id,
  scheduleId: '7',
  sequenceId,
  action: 'command',
  payload,
  timeOffset,
  continueOnFailure: false,
  isQueued: false,
  createdAt: NOW,
  updatedAt: NOW,
});

describe(ScheduleRunner.name, () => {
  let events: [string, Record<string, unknown>][];
  let executed: string[];
  let released: [string, string, Date | null, boolean?][];
  let tasks: ScheduleTaskEntity[];
  let repo: Record<string, jest.Mock>;

  const build = (options: { clock?: Clock; batchSize?: number; maxRunning?: number; repo?: Record<string, unknown> } = {}) => {
    const clock = options.clock ?? new WaitingClock();
    repo = {
      transaction: jest.fn((fn: (manager: object) => Promise<unknown>) => fn({})),
      releaseStaleClaims: jest.fn().mockResolvedValue([]),
      lockResumable: jest.fn().mockResolvedValue([]),
      lockDue: jest.fn().mockResolvedValueOnce([schedule('7')]).mockResolvedValue([]),
      markClaimed: jest.fn().mockResolvedValue(undefined),
      update: jest.fn().mockResolvedValue(undefined),
      tasksOf: jest.fn(() => Promise.resolve(tasks)),
      setQueued: jest.fn().mockResolvedValue(undefined),
      touchClaim: jest.fn().mockResolvedValue(true),
      findTask: jest.fn((_scheduleId: string, id: string) => Promise.resolve(tasks.find((t) => t.id === id) ?? null)),
      releaseClaim: jest.fn((id: string, token: string, lastRunAt: Date | null, resumable?: boolean) => {
        released.push(resumable ? [id, token, lastRunAt, resumable] : [id, token, lastRunAt]);
        return Promise.resolve();
      }),
      ...(options.repo ?? {}),
    } as Record<string, jest.Mock>;
    const server = { id: '3', uuid: 'uuid-3', suspended: false, status: null, node: {} };
    return new ScheduleRunner(
      strictMock<SchedulesRepository>('schedules', repo),
      strictMock<ServerContextResolver>('servers', { forRunner: () => Promise.resolve(server) }),
      strictMock<ScheduleTaskExecutor>('executor', {
        execute: (_server: unknown, t: ScheduleTaskEntity) => {
          executed.push(t.payload);
          return Promise.resolve();
        },
      }),
      strictMock<DaemonGateway>('daemon', {}),
      strictMock<ScheduleActivityLog>('activity', {
        byRunner: (_serverId: string, event: string, metadata: Record<string, unknown>) => {
          events.push([event, metadata]);
          return Promise.resolve();
        },
      }),
      clock,
      { scheduler: { enabled: false, tickMs: 10_000, staleClaimMs: 300_000, batchSize: options.batchSize ?? 50, maxRunning: options.maxRunning ?? 500 } } as AppConfigService,
      strictMock<PanelMetrics>('metrics', { scheduleRun: () => undefined }),
    );
  };

  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  beforeEach(() => {
    events = [];
    executed = [];
    released = [];
    tasks = [task('1', 1, 'say a'), task('2', 2, 'say b', 60)];
  });

  it('should claim with the next cron time, run the tasks in order and release the claim with last_run_at', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    const sut = build({ clock });
    expect(await sut.runDue()).toBe(1);
    expect(repo.markClaimed).toHaveBeenCalledWith('7', { token: expect.any(String), now: NOW, nextRunAt: new Date('2025-01-15T10:10:00.000Z') }, {});
    expect(executed).toEqual(['say a', 'say b']);
    expect(events.map(([e]) => e)).toEqual([
      'server.schedule.run.start',
      'server.schedule.task.success',
      'server.schedule.task.success',
      'server.schedule.run.finish',
    ]);
    const token = (repo.markClaimed.mock.calls[0] as [string, { token: string }])[1].token;
    expect(released).toEqual([['7', token, NOW]]);
  });

  it('should cut a time_offset short on shutdown, record the run as interrupted and release its claim', async () => {
    const clock = new WaitingClock();
    const sut = build({ clock });
    const running = sut.runDue();
    await clock.waitStarted;
    expect(clock.waits).toEqual([60_000]);
    await sut.onModuleDestroy();
    await running;
    expect(executed).toEqual(['say a']);
    expect(events.at(-1)).toEqual([
      'server.schedule.run.finish',
      { schedule_id: '7', name: 'Schedule 7', trigger: 'cron', status: 'interrupted', reason: 'shutdown', succeeded: 1, failed: 0, not_run: 1 },
    ]);
    // Its progress is kept: another process (or this one, started again) goes on with the rest.
    expect(released).toEqual([['7', expect.any(String), NOW, true]]);
    expect(repo.touchClaim.mock.calls.map((c: unknown[]) => c[3])).toEqual([1]);
    // A stopping runner claims nothing more.
    repo.lockDue.mockClear();
    expect(await sut.runDue()).toBe(0);
    expect(repo.lockDue).not.toHaveBeenCalled();
  });

  it('should resume a run whose process died after the last task it began, before any due run, without moving its cron time', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    tasks = [task('1', 1, 'say a'), task('2', 2, 'say b'), task('3', 3, 'say c')];
    const sut = build({
      clock,
      repo: {
        lockResumable: jest.fn().mockResolvedValueOnce([{ ...schedule('7'), runProgress: 1 }]).mockResolvedValue([]),
        lockDue: jest.fn().mockResolvedValue([]),
      },
    });
    expect(await sut.runDue()).toBe(1);
    expect(executed).toEqual(['say b', 'say c']);
    // Claimed without a next cron time: the interrupted run had moved it on already.
    expect(repo.markClaimed).toHaveBeenCalledWith('7', { token: expect.any(String), now: NOW }, {});
    expect(repo.touchClaim.mock.calls.map((c: unknown[]) => c[3])).toEqual([2, 3]);
    expect(events.map(([event]) => event)).toEqual(['server.schedule.run.start', 'server.schedule.task.success', 'server.schedule.task.success', 'server.schedule.run.finish']);
    expect(events[0][1]).toEqual({ schedule_id: '7', name: 'Schedule 7', trigger: 'resume', resumed_after_sequence: 1, tasks: 2 });
    expect(released).toEqual([['7', expect.any(String), NOW]]);
  });

  it('should stop without running a task once its claim is no longer its own', async () => {
    const sut = build({ repo: { touchClaim: jest.fn().mockResolvedValue(false) } });
    await sut.runDue();
    expect(executed).toEqual([]);
    expect(events.at(-1)?.[1]).toMatchObject({ status: 'interrupted', reason: 'claim_lost', succeeded: 0, not_run: 2 });
  });

  it('should pass over a task deleted while the run waited and go on with the next', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    tasks = [task('1', 1, 'say a', 30), task('2', 2, 'say b')];
    const sut = build({
      clock,
      repo: { findTask: jest.fn((_s: string, id: string) => Promise.resolve(id === '1' ? null : tasks[1])) },
    });
    await sut.runDue();
    expect(executed).toEqual(['say b']);
    expect(events.at(-1)?.[1]).toMatchObject({ status: 'completed', succeeded: 1, failed: 0, not_run: 0 });
  });

  it('should claim batch after batch until a batch comes back short', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    tasks = [];
    const lockDue = jest
      .fn()
      .mockResolvedValueOnce([schedule('1'), schedule('2')])
      .mockResolvedValueOnce([schedule('3'), schedule('4')])
      .mockResolvedValueOnce([schedule('5')]);
    const sut = build({ clock, batchSize: 2, repo: { lockDue } });
    expect(await sut.runDue()).toBe(5);
    expect(lockDue).toHaveBeenCalledTimes(3);
    expect(released.map(([id]) => id).sort()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('should claim no more than SCHEDULER_MAX_RUNNING runs under way, leaving the rest of a storm to other processes', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    tasks = [];
    const lockDue = jest.fn((_now: Date, _stale: Date, limit: number) => Promise.resolve(Array.from({ length: limit }, (_, i) => schedule(String(i + 1)))));
    const sut = build({ clock, batchSize: 2, maxRunning: 3, repo: { lockDue } });
    expect(await sut.runDue()).toBe(3);
    expect(lockDue.mock.calls.map((c) => c[2])).toEqual([2, 1]);
  });

  it('should pause, not claim, a stored schedule whose cron no longer yields a date', async () => {
    const clock = strictMock<Clock>('clock', { now: () => NOW, sleep: () => Promise.resolve() });
    const sut = build({ clock, repo: { lockDue: jest.fn().mockResolvedValueOnce([schedule('9', '0 0 30 2 *')]).mockResolvedValue([]) } });
    expect(await sut.runDue()).toBe(0);
    expect(repo.update).toHaveBeenCalledWith('9', { isActive: false }, {});
    expect(repo.markClaimed).not.toHaveBeenCalled();
  });
});
