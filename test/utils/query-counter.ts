import { Client } from 'pg';

const TRANSACTION_CONTROL = /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i;

/**
 * The SQL statements the app sends to PostgreSQL while `fn` runs (the app runs in the test
 * process, through node-postgres), transaction control left out.
 */
export const countQueries = async <T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }> => {
  const queries: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound below with apply(this)
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    if (!TRANSACTION_CONTROL.test(text)) {
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
