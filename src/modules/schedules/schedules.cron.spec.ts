import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfigService } from 'src/config/app-config.service';
import type { ScheduleRunner } from 'src/modules/schedules/schedule-runner.service';
import { SchedulesCron } from 'src/modules/schedules/schedules.cron';
import { strictMock } from 'test/utils/strict-mock';

const configWith = (enabled: boolean) => ({ scheduler: { enabled, tickMs: 10_000, staleClaimMs: 300_000, batchSize: 50 } }) as AppConfigService;

describe(SchedulesCron.name, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('should register no tick when the scheduler is off', () => {
    const registry = new SchedulerRegistry();
    const sut = new SchedulesCron(strictMock<ScheduleRunner>('runner'), registry, configWith(false));
    sut.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual([]);
    sut.onModuleDestroy();
  });

  it('should register its interval when on, and remove it on shutdown', () => {
    const registry = new SchedulerRegistry();
    const sut = new SchedulesCron(strictMock<ScheduleRunner>('runner'), registry, configWith(true));
    sut.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual([SchedulesCron.JOB]);
    sut.onModuleDestroy();
    expect(registry.getIntervals()).toEqual([]);
  });

  it('should ask the runner to start what is due, never overlapping itself', async () => {
    let finish: (runs: Promise<void>[]) => void = () => undefined;
    const startDue = jest.fn(() => new Promise<Promise<void>[]>((resolve) => (finish = resolve)));
    const sut = new SchedulesCron(strictMock<ScheduleRunner>('runner', { startDue }), new SchedulerRegistry(), configWith(true));
    const first = sut.tick();
    await sut.tick();
    expect(startDue).toHaveBeenCalledTimes(1);
    finish([]);
    await first;
    const second = sut.tick();
    expect(startDue).toHaveBeenCalledTimes(2);
    finish([]);
    await second;
  });

  it('should never throw when the runner fails', async () => {
    const startDue = jest.fn().mockRejectedValue(new Error('database unavailable'));
    const sut = new SchedulesCron(strictMock<ScheduleRunner>('runner', { startDue }), new SchedulerRegistry(), configWith(true));
    await expect(sut.tick()).resolves.toBeUndefined();
    // A failed tick does not leave the guard set.
    await expect(sut.tick()).resolves.toBeUndefined();
    expect(startDue).toHaveBeenCalledTimes(2);
  });
});
