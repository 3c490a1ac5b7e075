import { Client } from 'pg';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

const TRANSACTION_CONTROL = /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i;

/** The change feed's own connection (LISTEN and its heartbeat), which is no request's work. */
const isChangeFeed = (client: Client): boolean =>
  (client as Client & { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name === 'hatchery-changes';

/**
 * The SQL statements the app sends to PostgreSQL while `fn` runs (the app runs in the test
 * process, through node-postgres), transaction control and the change feed's heartbeat left out.
 */
export const countQueries = async <T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> => {
  const queries: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound below with apply(this)
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    if (!TRANSACTION_CONTROL.test(text) && !isChangeFeed(this)) {
      queries.push(text);
    }
    return (original as (...a: unknown[]) => ReturnType<Client['query']>).apply(this, args);
  });
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    spy.mockRestore();
  }
};

/**
 * The statements TypeORM runs while `fn` runs, on either driver (PostgreSQL or the embedded PGlite,
 * which does not go through node-postgres), transaction control left out.
 */
export const countTypeormQueries = async <T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> => {
  const queries: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound below with apply(this)
  const original = PostgresQueryRunner.prototype.query;
  const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : '';
    if (!TRANSACTION_CONTROL.test(text)) {
      queries.push(text);
    }
    return (original as (...a: unknown[]) => ReturnType<PostgresQueryRunner['query']>).apply(this, args);
  });
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    spy.mockRestore();
  }
};
