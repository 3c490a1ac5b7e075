import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfigService } from 'src/config/app-config.service';

/** Advisory lock ids shared by every panel process on one database. */
export enum DatabaseLock {
  Migrations = 740_001,
  FirstAdmin = 740_002,
  BackupUploadCleanup = 740_003,
  LogRetention = 740_004,
  UsageSampler = 740_005,
}

type SessionQuery = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * PostgreSQL session advisory locks, for work that one panel process at a time should do. A session lock
 * lives on one server session until it is unlocked there: behind a pooler in transaction mode
 * (DATABASE_DIRECT_URL set) the unlock could reach another session and leave the lock held for good, so
 * the lock is then taken on a connection of its own to PostgreSQL itself (opened when first needed, closed
 * after 10 s unused), while the work still runs through the pool. A killed process's lock goes with its
 * connection. The embedded PGlite is one process (see EmbeddedDatabaseLock) and one session: the work
 * just runs.
 */
@Injectable()
export class AdvisoryLocks implements OnApplicationShutdown {
  private direct?: Pool;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfigService,
  ) {}

  /** Runs `fn` holding the lock, once every other holder has let it go. */
  async run<T>(lock: DatabaseLock, fn: () => Promise<T>): Promise<T> {
    if (this.config.db.kind !== 'postgres') {
      return fn();
    }
    return this.withSession(async (query) => {
      await query('SELECT pg_advisory_lock($1)', [lock]);
      try {
        return await fn();
      } finally {
        await query('SELECT pg_advisory_unlock($1)', [lock]);
      }
    });
  }

  /** Runs `fn` only if no other process holds the lock (`pg_try_advisory_lock`); false when one does. */
  async tryRun(lock: DatabaseLock, fn: () => Promise<void>): Promise<boolean> {
    if (this.config.db.kind !== 'postgres') {
      await fn();
      return true;
    }
    return this.withSession(async (query) => {
      const [{ locked }] = (await query('SELECT pg_try_advisory_lock($1) AS locked', [lock])) as { locked: boolean }[];
      if (!locked) {
        return false;
      }
      try {
        await fn();
        return true;
      } finally {
        await query('SELECT pg_advisory_unlock($1)', [lock]);
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.direct?.end();
    this.direct = undefined;
  }

  /** One session for the lock and its unlock. */
  private async withSession<T>(use: (query: SessionQuery) => Promise<T>): Promise<T> {
    const db = this.config.db;
    if (db.kind === 'postgres' && db.pooled) {
      this.direct ??= new Pool({ connectionString: db.directUrl, max: 3, idleTimeoutMillis: 10_000, application_name: 'hatchery-locks' });
      const client = await this.direct.connect();
      let failed: Error | undefined;
      try {
        return await use(async (sql, params) => (await client.query<Record<string, unknown>>(sql, params)).rows);
      } catch (e) {
        // A session whose unlock failed may still hold the lock: it is closed, not given back.
        failed = e instanceof Error ? e : new Error(String(e));
        throw e;
      } finally {
        client.release(failed);
      }
    }
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      return await use((sql, params) => runner.query(sql, params) as Promise<Record<string, unknown>[]>);
    } finally {
      await runner.release();
    }
  }
}
