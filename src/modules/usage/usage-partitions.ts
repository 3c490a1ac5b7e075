import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CREATED_BY_ANOTHER, partitionNames } from 'src/database/partitions';
import { pgError } from 'src/database/pg-errors';

export const DAY_MS = 86_400_000;

/** The usage tables (migration AddUsageHistory), each partitioned by day, and how long each keeps its rows. */
const USAGE_TABLES = {
  server_usage: { keepMs: 2 * DAY_MS },
  node_usage: { keepMs: 2 * DAY_MS },
  server_usage_15m: { keepMs: 90 * DAY_MS },
  node_usage_15m: { keepMs: 90 * DAY_MS },
} as const;
type UsageTable = keyof typeof USAGE_TABLES;

/** The UTC day `at` falls in, as its first instant. */
const dayOf = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** A day's partition of a table: `server_usage_p20261128`. */
const partitionName = (table: UsageTable, day: Date): string => `${table}_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;

const PARTITION_DAY = /_p(\d{4})(\d{2})(\d{2})$/;


/**
 * The usage tables' daily partitions: made before the first row of a day is written, dropped whole
 * once the whole day is older than the table keeps (so old points go without a row-by-row delete,
 * and without the vacuum that would follow). Partitions are made on demand rather than ahead, so a
 * clock moved in tests or a panel stopped for a week needs nothing special.
 */
@Injectable()
export class UsagePartitions {
  private readonly logger = new Logger(UsagePartitions.name);
  /** Partitions this process has made or seen, so that a day's second write asks nothing. */
  private readonly known = new Set<string>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Makes the partition of `table` that holds `at`, unless it exists. */
  async ensure(table: UsageTable, at: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const day = dayOf(at);
    const name = partitionName(table, day);
    if (this.known.has(name)) {
      return;
    }
    const until = new Date(day.getTime() + DAY_MS);
    try {
      await manager.query(`CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "${table}" FOR VALUES FROM ('${day.toISOString()}') TO ('${until.toISOString()}')`);
    } catch (e) {
      // Another process made it between our check and our CREATE.
      if (!CREATED_BY_ANOTHER.has(pgError(e)?.code ?? '')) {
        throw e;
      }
    }
    this.known.add(name);
  }

  /** The days `table` has a partition for, oldest first, with the partitions' names. */
  async daysOf(table: UsageTable, manager: EntityManager = this.dataSource.manager): Promise<{ day: Date; name: string }[]> {
    return (await partitionNames(manager, table)).flatMap((name) => {
      const m = PARTITION_DAY.exec(name);
      return m ? [{ day: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), name }] : [];
    });
  }

  /** Drops every partition whose whole day is past what its table keeps; returns the names dropped. */
  async dropExpired(now: Date): Promise<string[]> {
    const dropped: string[] = [];
    for (const [table, { keepMs }] of Object.entries(USAGE_TABLES) as [UsageTable, { keepMs: number }][]) {
      for (const { day, name } of await this.daysOf(table)) {
        if (day.getTime() + DAY_MS <= now.getTime() - keepMs) {
          await this.dataSource.query(`DROP TABLE IF EXISTS "${name}"`);
          this.known.delete(name);
          dropped.push(name);
        }
      }
    }
    if (dropped.length > 0) {
      this.logger.log({ partitions: dropped }, `Dropped ${dropped.length} day(s) of usage history past retention`);
    }
    return dropped;
  }
}
