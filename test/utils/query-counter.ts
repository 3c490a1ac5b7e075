import { Client } from 'pg';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

const TRANSACTION_CONTROL = /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i;

/** The change feed's own connection (LISTEN and its heartbeat), which is no request's work. */
const isChangeFeed = (client: Client): boolean =>
  (client as Client & { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name === 'hatchery-changes';

interface Querying {
  query(...args: unknown[]): unknown;
}

/**
 * Runs `fn` with `proto.query` spied on, and gives back the statement texts `textOf` reads from
 * its calls (undefined: not counted), transaction control left out.
 */
const recordQueries = async <T>(
  proto: Querying,
  textOf: (self: unknown, args: unknown[]) => string | undefined,
  fn: () => Promise<T>,
): Promise<{ result: T; queries: string[] }> => {
  const queries: string[] = [];
  // oxlint-disable-next-line typescript/unbound-method -- re-bound below with apply(this)
  const original = proto.query;
  const spy = jest.spyOn(proto, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const text = textOf(this, args);
    if (text !== undefined && !TRANSACTION_CONTROL.test(text)) {
      queries.push(text);
    }
    return original.apply(this, args);
  });
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    spy.mockRestore();
  }
};

/**
 * The SQL statements the app sends to PostgreSQL while `fn` runs (the app runs in the test
 * process, through node-postgres), transaction control and the change feed's heartbeat left out.
 */
export const countQueries = <T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> =>
  recordQueries(
    Client.prototype as unknown as Querying,
    (self, [first]) => (isChangeFeed(self as Client) ? undefined : typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '')),
    fn,
  );

/**
 * The statements TypeORM runs while `fn` runs, on either driver (PostgreSQL or the embedded PGlite,
 * which does not go through node-postgres), transaction control left out.
 */
export const countTypeormQueries = <T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> =>
  recordQueries(PostgresQueryRunner.prototype as unknown as Querying, (_self, [first]) => (typeof first === 'string' ? first : ''), fn);
