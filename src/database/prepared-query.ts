import { Pool } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * Runs a read a hot path repeats as a named prepared statement when the database is PostgreSQL
 * (node-postgres prepares it once per pooled connection): planning a list page's query cost
 * PostgreSQL about as much as running it. The embedded PGlite is one session in the panel's own
 * process and runs the text as any other query. `name` must stand for this one text: node-postgres
 * refuses a name it prepared with another text. Outside transactions only (it takes any pooled
 * connection).
 */
export const queryPrepared = async <T>(manager: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> => {
  const pool: unknown = (manager.connection.driver as unknown as { master?: unknown }).master;
  if (pool instanceof Pool && !manager.queryRunner) {
    return (await pool.query<T & object>({ name, text, values })).rows;
  }
  return manager.query<T[]>(text, values);
};
