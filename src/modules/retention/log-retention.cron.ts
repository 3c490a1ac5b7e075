import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { JobQueue } from 'src/common/background/job-queue';
import { Clock } from 'src/common/clock';
import { AppConfigService } from 'src/config/app-config.service';
import { AdvisoryLocks, DatabaseLock } from 'src/database/db-lock';
import { likeLiteral } from 'src/database/like';
import { AuditService } from 'src/modules/audit/audit.service';
import { LogPartitions } from 'src/database/log-partitions';
import { ServerActivityLog } from 'src/modules/servers/server-activity';

/** A category of a log: the entries whose name starts with one of `prefixes` or equals one of `names`. */
interface Category {
  prefixes?: string[];
  names?: string[];
}

/**
 * The categories with their own retention (docs/configuration.md#log-retention); what none of them
 * holds is `other`. Security: who may sign in and with what (accounts, passwords, e-mail, two-factor,
 * suspension, a node's token); on a server, who has access (subusers) and refused SFTP sign-ins.
 * Console: the commands typed into a server's console, the log's largest and least lasting part.
 */
const AUDIT_CATEGORIES = {
  security: { prefixes: ['user.'], names: ['node.token_reset'] },
} satisfies Record<string, Category>;

const ACTIVITY_CATEGORIES = {
  security: { prefixes: ['server.subuser.', 'server.sftp.'] },
  console: { prefixes: ['server.console.'] },
} satisfies Record<string, Category>;

const patternsOf = (category: Category): string[] => [
  ...(category.prefixes ?? []).map((p) => `${likeLiteral(p)}%`),
  ...(category.names ?? []).map((n) => likeLiteral(n)),
];

/** What one sweep deleted, per log and category (row by row), and the months it dropped whole. */
interface RetentionOutcome {
  audit: Record<keyof typeof AUDIT_CATEGORIES | 'other', number>;
  activity: Record<keyof typeof ACTIVITY_CATEGORIES | 'other', number>;
  droppedPartitions: string[];
}

/** The longest any category of a log is kept, in days; 0 when one is kept for ever. */
const longest = (days: Record<string, number>): number => (Object.values(days).includes(0) ? 0 : Math.max(...Object.values(days)));

/** One category's sweep: its LIKE patterns (or, for `other`, everyone else's, negated) and its age limit in days. */
interface Rule {
  category: string;
  patterns: string[];
  except: boolean;
  days: number;
}

const rulesOf = (categories: Record<string, Category>, days: Record<string, number>): Rule[] => [
  ...Object.entries(categories).map(([category, c]) => ({ category, patterns: patternsOf(c), except: false, days: days[category] })),
  { category: 'other', patterns: Object.values(categories).flatMap(patternsOf), except: true, days: days.other },
];

/** Batches one category may take in a sweep; the next sweep goes on where it stopped. */
const MAX_BATCHES = 200;
const DAY_MS = 86_400_000;

/**
 * Keeps the audit log and the server activity log from growing without bound: every
 * LOG_RETENTION_INTERVAL_MINUTES one process (a job on the queue, and an advisory lock) first drops
 * the logs' months past the longest retention of their categories, whole, and makes the months ahead
 * (src/database/log-partitions.ts); then deletes, category by category, the entries older than that category's
 * retention, in batches of LOG_RETENTION_BATCH_SIZE, found through the created_at indexes. The counts
 * behind the lists' totals follow (their triggers; a dropped month's by LogPartitions).
 */
@Injectable()
export class LogRetentionCron extends IntervalJob {
  static readonly JOB = 'logs.retention';

  constructor(
    private readonly audit: AuditService,
    private readonly activity: ServerActivityLog,
    registry: SchedulerRegistry,
    queue: JobQueue,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
    private readonly locks: AdvisoryLocks,
    private readonly partitions: LogPartitions,
  ) {
    super(LogRetentionCron.JOB, 'Log retention sweep', config.retention.intervalMs, registry, config, { queue });
  }

  protected async run(): Promise<void> {
    const outcome = await this.sweep();
    const deleted = outcome ? [...Object.values(outcome.audit), ...Object.values(outcome.activity)].reduce((a, b) => a + b, 0) : 0;
    if (outcome && deleted > 0) {
      this.logger.log({ audit: outcome.audit, activity: outcome.activity }, `Deleted ${deleted} log entries past their retention`);
    }
  }

  /** One sweep over both logs; null when another process is sweeping. */
  async sweep(): Promise<RetentionOutcome | null> {
    const { retention } = this.config;
    const outcome: RetentionOutcome = { audit: { security: 0, other: 0 }, activity: { security: 0, console: 0, other: 0 }, droppedPartitions: [] };
    const ran = await this.locks.tryRun(DatabaseLock.LogRetention, async () => {
      const now = this.clock.now().getTime();
      for (const [table, days] of [['audit_log', retention.audit], ['server_activity', retention.activity]] as const) {
        outcome.droppedPartitions.push(...(await this.partitions.dropExpired(table, longest(days), new Date(now))));
        await this.partitions.ensureAhead(table, new Date(now));
      }
      for (const rule of rulesOf(AUDIT_CATEGORIES, retention.audit)) {
        outcome.audit[rule.category as keyof RetentionOutcome['audit']] = await this.drain(rule, now, (before, limit) => this.audit.deleteOlder(before, rule.patterns, rule.except, limit));
      }
      for (const rule of rulesOf(ACTIVITY_CATEGORIES, retention.activity)) {
        outcome.activity[rule.category as keyof RetentionOutcome['activity']] = await this.drain(rule, now, (before, limit) => this.activity.deleteOlder(before, rule.patterns, rule.except, limit));
      }
    });
    return ran ? outcome : null;
  }

  /** Deletes a category's old entries batch by batch until a batch comes back short. */
  private async drain(rule: Rule, now: number, batch: (before: Date, limit: number) => Promise<number>): Promise<number> {
    if (rule.days === 0) {
      return 0;
    }
    const before = new Date(now - rule.days * DAY_MS);
    const limit = this.config.retention.batchSize;
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await batch(before, limit);
      total += n;
      if (n < limit) {
        break;
      }
    }
    return total;
  }
}
