import { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import type { PoolExtra } from 'src/database/data-source';

/**
 * Runs a read a hot path repeats as a named prepared statement when the database is PostgreSQL
 * (node-postgres prepares it once per pooled connection): planning a list page's query cost
 * PostgreSQL about as much as running it. The embedded PGlite is one session in the panel's own
 * process and runs the text as any other query. `name` must stand for this one text: node-postgres
 * refuses a name it prepared with another text. Outside transactions only (it takes any pooled
 * connection). Behind a pooler in transaction mode (DATABASE_DIRECT_URL set) the statement would be
 * prepared on one server session and run on another: there the text goes unnamed, as any query.
 */
export const queryPrepared = async <T>(manager: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> => {
  const pool: unknown = (manager.connection.driver as unknown as { master?: unknown }).master;
  if (pool instanceof Pool && !manager.queryRunner && (pool.options as Partial<PoolExtra>).namedStatements !== false) {
    return (await pool.query<T & object>({ name, text, values })).rows;
  }
  return manager.query<T[]>(text, values);
};
