import type { Client } from 'pg';
import { dbUrl, withAdminClient } from 'test/setup/test-env';

/** The PostgreSQL server the bench creates its databases on (user postgres, trust, as the tests use). */
export const PG_ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const NAME = /^[a-z_][a-z0-9_]*$/;

export const databaseUrl = (name: string): string => dbUrl(name, PG_ADMIN_URL);

const withAdmin = <T>(fn: (c: Client) => Promise<T>): Promise<T> => withAdminClient(fn, PG_ADMIN_URL);

/** Throws a readable error when PostgreSQL cannot be reached; returns its version otherwise. */
export const checkPostgres = async (): Promise<string> => {
  try {
    return await withAdmin(async (c) => (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v);
  } catch (e) {
    throw new Error(
      `npm run bench needs PostgreSQL, and ${PG_ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} did not answer (${(e as Error).message}).\n` +
        'Start PostgreSQL (user postgres with trust authentication on 127.0.0.1:5432, as the tests use), ' +
        'or point BENCH_DATABASE_ADMIN_URL at a server where the bench may create and drop its own databases.',
    );
  }
};

/** Drops (if left by an interrupted run) and creates one of the bench's own databases. */
export const recreateDatabase = (name: string): Promise<void> => {
  if (!NAME.test(name)) {
    throw new Error(`bad database name ${name}`);
  }
  return withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
};

export const dropDatabase = (name: string): Promise<void> => {
  if (!NAME.test(name)) {
    throw new Error(`bad database name ${name}`);
  }
  return withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
};

/**
 * The process ids of the PostgreSQL backends serving a database's clients (to read their CPU time from
 * /proc): not an autovacuum worker that happens to be in it, whose whole run would count in one window.
 */
export const backendPids = (name: string): Promise<number[]> =>
  withAdmin(async (c) =>
    (await c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [name])).rows.map((r) => r.pid),
  );
