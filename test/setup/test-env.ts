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

export const dbUrl = (database: string): string => {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

/** Runs `fn` with a connection to the maintenance database. */
export const withAdminClient = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

/** Whether global setup reached PostgreSQL; 'unavailable: <reason>' otherwise. */
export const postgresStatus = (): string => process.env[PG_STATUS_ENV] ?? 'unavailable: global setup did not run';
