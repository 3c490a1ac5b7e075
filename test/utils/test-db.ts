import { randomBytes } from 'node:crypto';
import { dbUrl, isCi, postgresStatus, templateDb, testDbPrefix, withAdminClient } from 'test/setup/test-env';

export type DbKind = 'postgres' | 'pglite';

/**
 * The database kinds a test file runs against. PostgreSQL is skipped, with the reason printed,
 * only outside CI; in CI global setup has already failed the run if it is missing.
 */
export const dbKinds = (wanted: DbKind[] = ['postgres']): DbKind[] =>
  wanted.filter((kind) => {
    if (kind === 'postgres' && postgresStatus() !== 'available') {
      if (isCi()) {
        throw new Error(`PostgreSQL is required in CI: ${postgresStatus()}`);
      }
      process.stdout.write(`[hatchery tests] skipping the PostgreSQL variant: ${postgresStatus()}\n`);
      return false;
    }
    return true;
  });

/**
 * A fresh database cloned from the migrated template (or, with `empty`, one with no tables at
 * all); returns its URL and a drop function.
 */
export const createTestDatabase = async ({ empty = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `${testDbPrefix()}${randomBytes(4).toString('hex')}`;
  await withAdminClient(async (c) => {
    await c.query(`CREATE DATABASE "${name}" TEMPLATE ${empty ? 'template0' : templateDb()}`);
    // A test database is thrown away: commits need not wait for the WAL to reach the disk.
    await c.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  return {
    url: dbUrl(name),
    drop: () => withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
};
