import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IntervalJob } from 'src/common/background/interval-job';
import { AppConfigService } from 'src/config/app-config.service';

/** The tables one pass vacuumed (and analysed) or only analysed, as `schema.table`. */
interface VacuumOutcome {
  vacuumed: string[];
  analyzed: string[];
}

/**
 * The tables past autovacuum's default thresholds (PostgreSQL's documentation, "The Autovacuum Daemon"):
 * a vacuum when the dead rows pass 50 + 20 % of the table, or the rows inserted since the last vacuum
 * 1,000 + 20 %; new statistics when the rows changed since the last analyse pass 50 + 10 %. A table
 * never vacuumed counts as empty (`reltuples` is -1 until then). Names come quoted, by `format('%I')`.
 */
const DUE_TABLES = `
  SELECT format('%I.%I', s.schemaname, s.relname) AS "table",
         (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) AS "vacuum"
  FROM pg_stat_user_tables s
  JOIN pg_class c ON c.oid = s.relid
  WHERE s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
     OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
     OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
  ORDER BY s.relname`;

/**
 * The embedded database's autovacuum. PGlite is PostgreSQL in one process with no background workers,
 * so nothing there reclaims dead rows or refreshes the planner's statistics: a panel whose tables grew
 * from a few rows to many would keep planning for a few. Every EMBEDDED_VACUUM_INTERVAL_MINUTES this job
 * does what autovacuum would, table by table, by the same thresholds. A vacuum holds the embedded
 * database's one connection while it runs; the thresholds make it rare on large tables, as there.
 * On PostgreSQL it does nothing: the server's autovacuum does this.
 */
@Injectable()
export class EmbeddedVacuumJob extends IntervalJob {
  static readonly JOB = 'database.embedded-vacuum';

  constructor(
    registry: SchedulerRegistry,
    config: AppConfigService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    super(EmbeddedVacuumJob.JOB, 'Embedded database vacuum', config.db.kind === 'pglite' ? config.db.vacuumIntervalMs : 0, registry, config, { applies: config.db.kind === 'pglite' });
  }

  protected async run(): Promise<void> {
    const outcome = await this.sweep();
    if (outcome && outcome.vacuumed.length + outcome.analyzed.length > 0) {
      this.logger.log(outcome, `Vacuumed ${outcome.vacuumed.length} and analysed ${outcome.analyzed.length} table(s) of the embedded database`);
    }
  }

  /** One pass over the tables; null on PostgreSQL. */
  async sweep(): Promise<VacuumOutcome | null> {
    if (this.dataSource.options.driver === undefined) {
      return null;
    }
    const outcome: VacuumOutcome = { vacuumed: [], analyzed: [] };
    for (const { table, vacuum } of await this.dataSource.query<{ table: string; vacuum: boolean }[]>(DUE_TABLES)) {
      if (vacuum) {
        await this.dataSource.query(`VACUUM (ANALYZE) ${table}`);
        outcome.vacuumed.push(table);
      } else {
        await this.dataSource.query(`ANALYZE ${table}`);
        outcome.analyzed.push(table);
      }
    }
    return outcome;
  }
}
