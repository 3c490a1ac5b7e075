import { EntityManager } from 'typeorm';
import { ensureMonth, LOG_TABLES } from 'src/database/log-partitions';

/**
 * Writes imported rows into Hatchery's tables inside the importer's one transaction. Rows are
 * restored as they were (ids included), so they go in with plain multi-row INSERTs rather than
 * through each module's service: the services create new things (new ids, new tokens, calls to
 * Wings), the importer moves existing ones. Like a migration, it is the one writer outside
 * src/modules that names every module's tables (docs/development.md).
 */

/** A column's value as the driver sends it; arrays and objects are encoded by the caller. */
export type TargetValue = string | number | boolean | Date | null;
export type TargetRow = Record<string, TargetValue>;

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 30_000;

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A PostgreSQL text[] literal (`{"a","b"}`). */
export const textArray = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/** Tables whose ids (or integer ids) the importer sets itself, and whose sequences must follow. */
const SEQUENCES: [table: string, column: string][] = [
  ['user', 'id'],
  ['user_ssh_key', 'id'],
  ['pterodactyl_api_key', 'id'],
  ['location', 'id'],
  ['node', 'id'],
  ['allocation', 'id'],
  ['nest', 'int_id'],
  ['egg', 'int_id'],
  ['egg_variable', 'int_id'],
  ['server', 'id'],
  ['database_host', 'id'],
  ['backup_host', 'id'],
  ['server_database', 'id'],
  ['schedule', 'id'],
  ['schedule_task', 'id'],
  ['backup', 'id'],
  ['mount', 'id'],
];

/** Where an import's rows go: Hatchery's tables, or nowhere (the dry run). Answers how many rows were written. */
export interface RowSink {
  insert(table: string, rows: readonly TargetRow[], options?: { skipConflicts?: boolean }): Promise<number>;
}

export class TargetWriter implements RowSink {
  /** The log months made or found for the rows written so far (`audit_log 2021-03`). */
  private readonly months = new Set<string>();

  constructor(private readonly manager: EntityManager) {}

  /** Imported history goes to the months of its logs (migration PartitionLogsByMonth), made as needed. */
  private async ensureMonths(table: string, rows: readonly TargetRow[]): Promise<void> {
    const log = LOG_TABLES.find((t) => t === table);
    if (!log) {
      return;
    }
    for (const row of rows) {
      const at = row.created_at;
      const key = at instanceof Date ? `${log} ${at.toISOString().slice(0, 7)}` : null;
      if (key && !this.months.has(key)) {
        await ensureMonth((sql, params) => this.manager.query(sql, params), log, at as Date);
        this.months.add(key);
      }
    }
  }

  /**
   * Inserts rows that all have the same columns (those of the first row). With `skipConflicts`, a row
   * that would break a unique index is left out (ON CONFLICT DO NOTHING) and not counted.
   */
  async insert(table: string, rows: readonly TargetRow[], options: { skipConflicts?: boolean } = {}): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    await this.ensureMonths(table, rows);
    let written = 0;
    const columns = Object.keys(rows[0]);
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      const params: TargetValue[] = [];
      const tuples = chunk.map((row) => {
        const placeholders = columns.map((c) => {
          params.push(row[c] ?? null);
          return `$${params.length}`;
        });
        return `(${placeholders.join(', ')})`;
      });
      const sql = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES ${tuples.join(', ')}`;
      if (options.skipConflicts) {
        written += (await this.manager.query<unknown[]>(`${sql} ON CONFLICT DO NOTHING RETURNING 1 AS one`, params)).length;
      } else {
        await this.manager.query(sql, params);
        written += chunk.length;
      }
    }
    return written;
  }

  /** After rows were written with their own ids, new rows must get ids above them. */
  async advanceSequences(): Promise<void> {
    for (const [table, column] of SEQUENCES) {
      await this.manager.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(COALESCE(MAX(${ident(column)}), 0), 1), MAX(${ident(column)}) IS NOT NULL) FROM ${ident(table)}`,
        [ident(table), column],
      );
    }
  }
}

/** What Hatchery already holds of the kinds an import brings: all must be zero. */
export const existingRows = async (manager: EntityManager): Promise<{ users: number; nodes: number; nests: number; servers: number }> => {
  const [row] = await manager.query<Record<string, string | number>[]>(
    'SELECT (SELECT COUNT(*) FROM "user") AS users, (SELECT COUNT(*) FROM "node") AS nodes, (SELECT COUNT(*) FROM "nest") AS nests, (SELECT COUNT(*) FROM "server") AS servers',
  );
  return { users: Number(row.users), nodes: Number(row.nodes), nests: Number(row.nests), servers: Number(row.servers) };
};
