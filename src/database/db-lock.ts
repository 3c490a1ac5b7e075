import { DataSource } from 'typeorm';

/** Advisory lock ids shared by every panel process on one database. */
export enum DatabaseLock {
  Migrations = 740_001,
  FirstAdmin = 740_002,
  BackupUploadCleanup = 740_003,
  LogRetention = 740_004,
  UsageSampler = 740_005,
}

/**
 * Runs `fn` while holding a PostgreSQL session advisory lock. PGlite is single-process (see
 * EmbeddedDatabaseLock) and single-session, so there it just runs `fn`.
 */
export const withAdvisoryLock = async <T>(dataSource: DataSource, lock: DatabaseLock, fn: () => Promise<T>): Promise<T> => {
  if (dataSource.options.driver !== undefined) {
    return fn();
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lock]);
    try {
      return await fn();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [lock]);
    }
  } finally {
    await runner.release();
  }
};

/**
 * Runs `fn` only if no other process holds the lock (PostgreSQL `pg_try_advisory_lock`), for periodic
 * jobs one process at a time should do; false when another process is at it. On PGlite it just runs.
 */
export const withAdvisoryTryLock = async (dataSource: DataSource, lock: DatabaseLock, fn: () => Promise<void>): Promise<boolean> => {
  if (dataSource.options.driver !== undefined) {
    await fn();
    return true;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [lock])) as { locked: boolean }[];
    if (!locked) {
      return false;
    }
    try {
      await fn();
      return true;
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [lock]);
    }
  } finally {
    await runner.release();
  }
};
