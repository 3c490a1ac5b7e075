import type { EntityManager } from 'typeorm';

/**
 * Errors a CREATE of a partition ends in when another process made the same one first: the name taken,
 * or the range (42P07, 42P17, 23505).
 */
export const CREATED_BY_ANOTHER = new Set(['42P07', '42P17', '23505']);

/** The names of `table`'s partitions, in name order. */
export const partitionNames = async (manager: EntityManager, table: string): Promise<string[]> =>
  (
    await manager.query<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
      [table],
    )
  ).map((r) => r.name);
