import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { DataSource } from 'typeorm';
import type { AppConfigService } from 'src/config/app-config.service';
import { EmbeddedVacuumJob } from 'src/modules/retention/embedded-vacuum.job';
import { strictMock } from 'test/utils/strict-mock';

const configOf = (kind: 'pglite' | 'postgres', enabled = true) =>
  ({
    scheduler: { enabled, tickMs: 10_000, staleClaimMs: 300_000, batchSize: 50 },
    db: kind === 'pglite' ? { kind, dataDir: 'memory://', runMigrations: true, vacuumIntervalMs: 300_000 } : { kind, url: 'postgres://x', poolMax: 5, runMigrations: true },
  }) as AppConfigService;

describe(EmbeddedVacuumJob.name, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it.each([
    ['the embedded database with the scheduler on', configOf('pglite'), [EmbeddedVacuumJob.JOB]],
    ['the embedded database with the scheduler off', configOf('pglite', false), []],
    ['PostgreSQL, which has its own autovacuum', configOf('postgres'), []],
  ])('should register its interval only on %s', (_, config, intervals) => {
    const registry = new SchedulerRegistry();
    const sut = new EmbeddedVacuumJob(registry, config, strictMock<DataSource>('dataSource'));
    sut.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual(intervals);
    sut.onModuleDestroy();
    expect(registry.getIntervals()).toEqual([]);
  });
});
