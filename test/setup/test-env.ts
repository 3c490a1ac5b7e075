import { Client } from 'pg';

/** The PostgreSQL server the tests use: its maintenance database, where test databases are created. */
export const TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PG_STATUS_ENV = 'HATCHERY_TEST_PG';
const RUN_ENV = 'HATCHERY_TEST_RUN';

/** One id per jest run, so that two runs on one PostgreSQL server never touch each other's databases. */
export const runId = (): string => (process.env[RUN_ENV] ??= `${process.pid}`);
export const templateDb = (): string => `hatchery_tpl_${runId()}`;
export const testDbPrefix = (): string => `hatchery_t_${runId()}_`;

export const isCi = (): boolean => ['true', '1'].includes((process.env.CI ?? '').toLowerCase());

/** A database's URL on the server of `adminUrl` (the tests' server unless told; the bench has its own). */
export const dbUrl = (database: string, adminUrl = TEST_PG_ADMIN_URL): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

/** Runs `fn` with a connection to the maintenance database (of `adminUrl`, the tests' unless told). */
export const withAdminClient = async <T>(fn: (client: Client) => Promise<T>, adminUrl = TEST_PG_ADMIN_URL): Promise<T> => {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

/** Whether global setup reached PostgreSQL; 'unavailable: <reason>' otherwise. */
export const postgresStatus = (): string => process.env[PG_STATUS_ENV] ?? 'unavailable: global setup did not run';
