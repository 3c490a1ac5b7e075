import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CREATED_BY_ANOTHER, partitionNames } from 'src/database/partitions';
import { pgError } from 'src/database/pg-errors';

/** The logs partitioned by month of created_at (migration PartitionLogsByMonth). */
export const LOG_TABLES = ['audit_log', 'server_activity'] as const;
type LogTable = (typeof LOG_TABLES)[number];

/** Months made ahead of the current one, so that no entry waits on a partition. */
const MONTHS_AHEAD = 2;
/** The DEFAULT partition already holds entries of that month (23514): the month is left to it. */
const DEFAULT_HOLDS_ROWS = '23514';

const PARTITION_MONTH = /_p(\d{4})(\d{2})$/;

/** The first instant (UTC) of the month `at` falls in, `months` later. */
const monthStart = (at: Date, months = 0): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

/** `audit_log_p202611` */
const partitionName = (table: LogTable, month: Date): string => `${table}_p${month.toISOString().slice(0, 7).replace('-', '')}`;

/**
 * Makes `table`'s partition for the month of `at` unless it exists, or unless the DEFAULT partition
 * holds entries of that month already (they would have to move first); whether it exists now. Safe
 * inside a transaction: it asks before it creates, so nothing fails on a month left to DEFAULT.
 */
export const ensureMonth = async (query: <T>(sql: string, params?: unknown[]) => Promise<T>, table: LogTable, at: Date): Promise<boolean> => {
  const from = monthStart(at);
  const to = monthStart(at, 1);
  const inDefault = await query<unknown[]>(`SELECT 1 FROM "${table}_default" WHERE "created_at" >= $1 AND "created_at" < $2 LIMIT 1`, [from, to]);
  if (inDefault.length > 0) {
    return false;
  }
  await query(`CREATE TABLE IF NOT EXISTS "${partitionName(table, from)}" PARTITION OF "${table}" FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
  return true;
};

/**
 * How a month leaves a log's counts (kept by statement triggers on the log, which a partition dropped
 * whole does not fire): the same slot arithmetic as the triggers (migration AddLogCursorsAndCounts).
 */
const UNCOUNT: Record<LogTable, (partition: string) => string> = {
  audit_log: (p) =>
    `INSERT INTO "audit_log_count" ("slot", "n") SELECT 0, -count(*) FROM "${p}" HAVING count(*) > 0
       ON CONFLICT ("slot") DO UPDATE SET "n" = "audit_log_count"."n" + EXCLUDED."n"`,
  server_activity: (p) =>
    `INSERT INTO "server_activity_count" ("server_id", "slot", "n")
       SELECT "server_id", 0, -count(*) FROM "${p}" GROUP BY "server_id" ORDER BY "server_id"
       ON CONFLICT ("server_id", "slot") DO UPDATE SET "n" = "server_activity_count"."n" + EXCLUDED."n"`,
};

/** After the month is detached: the slots of servers it held the last entries of go with it. */
const FORGET_EMPTY: Partial<Record<LogTable, (partition: string) => string>> = {
  server_activity: (p) =>
    `DELETE FROM "server_activity_count" c WHERE c."server_id" IN (SELECT DISTINCT "server_id" FROM "${p}")
       AND NOT EXISTS (SELECT 1 FROM "server_activity" a WHERE a."server_id" = c."server_id")`,
};

/**
 * The logs' monthly partitions (here beside the migration that made them: a storage matter of two
 * modules' tables, as the migrations are): each retention sweep makes the months ahead (MONTHS_AHEAD) and drops,
 * whole, every month past the longest retention of the categories the log keeps (no row by row delete,
 * no vacuum after it); the shorter categories are still deleted row by row (log-retention.cron.ts).
 * A log with a category kept for ever keeps every month. Entries outside every month (a clock far
 * ahead, a panel whose sweep did not run for months) go to the DEFAULT partition and are deleted row
 * by row; a month whose entries are already there is not made.
 */
@Injectable()
export class LogPartitions {
  private readonly logger = new Logger(LogPartitions.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Makes the month of `now` and the MONTHS_AHEAD after it, where missing. */
  async ensureAhead(table: LogTable, now: Date): Promise<void> {
    const existing = new Set((await this.months(table)).map((m) => m.name));
    for (let k = 0; k <= MONTHS_AHEAD; k++) {
      const from = monthStart(now, k);
      if (existing.has(partitionName(table, from))) {
        continue;
      }
      let exists: boolean;
      try {
        exists = await ensureMonth((sql, params) => this.dataSource.query(sql, params), table, from);
      } catch (e) {
        // Another process made it meanwhile, or an entry of that month arrived in DEFAULT meanwhile.
        const code = pgError(e)?.code ?? '';
        if (!CREATED_BY_ANOTHER.has(code) && code !== DEFAULT_HOLDS_ROWS) {
          throw e;
        }
        exists = code !== DEFAULT_HOLDS_ROWS;
      }
      if (!exists) {
        this.logger.warn(`${table}: entries of ${from.toISOString().slice(0, 7)} are in its DEFAULT partition already; that month gets no partition of its own`);
      }
    }
  }

  /** Drops every month wholly older than `keepDays` before `now` (none when 0: kept for ever); the names dropped. */
  async dropExpired(table: LogTable, keepDays: number, now: Date): Promise<string[]> {
    if (keepDays === 0) {
      return [];
    }
    const before = now.getTime() - keepDays * 86_400_000;
    const dropped: string[] = [];
    for (const { name, month } of await this.months(table)) {
      if (monthStart(month, 1).getTime() > before) {
        continue;
      }
      await this.dataSource.transaction(async (m) => {
        await m.query(UNCOUNT[table](name));
        await m.query(`ALTER TABLE "${table}" DETACH PARTITION "${name}"`);
        const forget = FORGET_EMPTY[table];
        if (forget) {
          await m.query(forget(name));
        }
        await m.query(`DROP TABLE "${name}"`);
      });
      dropped.push(name);
    }
    if (dropped.length > 0) {
      this.logger.log({ partitions: dropped }, `Dropped ${dropped.length} month(s) of ${table} past retention`);
    }
    return dropped;
  }

  /** The months `table` has a partition for, oldest first. */
  private async months(table: LogTable): Promise<{ name: string; month: Date }[]> {
    return (await partitionNames(this.dataSource.manager, table)).flatMap((name) => {
      const m = PARTITION_MONTH.exec(name);
      return m ? [{ name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
    });
  }
}
