import { Injectable, Logger } from '@nestjs/common';
import type { Connection } from 'mysql2/promise';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { DatabaseHostEntity, hostPasswordContext } from 'src/modules/databases/database-host.entity';
import { grantDatabasePattern, quoteIdentifier } from 'src/modules/databases/database-names';
import { DatabaseError } from 'src/modules/databases/databases.errors';

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * The privileges a customer's user gets on its own database: Pterodactyl's explicit list, never
 * GRANT ALL (no GRANT OPTION, no FILE, nothing outside the database).
 */
export const DATABASE_GRANTS = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'ALTER',
  'REFERENCES',
  'INDEX',
  'LOCK TABLES',
  'CREATE ROUTINE',
  'ALTER ROUTINE',
  'EXECUTE',
  'CREATE TEMPORARY TABLES',
  'CREATE VIEW',
  'SHOW VIEW',
  'EVENT',
  'TRIGGER',
] as const;

/** How to reach a host as its admin account; the password is the opened (plain) one. */
interface HostTarget {
  id: string;
  host: string;
  port: number;
  username: string;
  password: string;
}

/** One customer database and its user, as created on a host. */
export interface DatabaseSpec {
  database: string;
  username: string;
  remote: string;
}

/** The errors mysql2 raises: Node socket errors (`code` only) and server errors (`errno`, `sqlMessage`). */
interface MySqlError extends Error {
  code?: string;
  errno?: number;
  fatal?: boolean;
  sqlMessage?: string;
}

/** ER_DB_CREATE_EXISTS and ER_CANNOT_USER: the name is taken on the host by something the panel did not make. */
const CONFLICT_ERRNOS = new Set([1007, 1396]);

/** Where a failure happened; it decides the status (unreachable host vs refused statement). */
type Phase = 'connect' | 'statement';

/**
 * A small client for MySQL/MariaDB hosts: one short-lived connection per operation, short
 * timeouts, identifiers quoted, values escaped by the driver. It never logs a statement or a
 * password, and errors it raises carry only the server's message with any secret cut out.
 */
@Injectable()
export class MySqlHostClient {
  private readonly logger = new Logger(MySqlHostClient.name);

  constructor(private readonly secrets: SecretBox) {}

  /** The host's version string (`SELECT VERSION()`). */
  async version(host: DatabaseHostEntity): Promise<string> {
    return this.withConnection(this.target(host), {}, async (run) => {
      const rows = await run<{ version: string }[]>('SELECT VERSION() AS version');
      return rows[0].version;
    });
  }

  /**
   * Creates the database, the user (with MAX_USER_CONNECTIONS when given) and the grant. All or
   * nothing: when a statement fails, whatever this call made is dropped again before the error is
   * thrown; things that existed before (a clashing user, say) are left alone.
   */
  async createDatabase(host: DatabaseHostEntity, spec: DatabaseSpec, password: string, maxConnections: number | null): Promise<void> {
    const target = this.target(host);
    await this.withConnection(target, { secrets: [password], conflicts: true }, async (run) => {
      const made = { database: false, user: false };
      try {
        await run(`CREATE DATABASE ${quoteIdentifier(spec.database)} CHARACTER SET utf8mb4`);
        made.database = true;
        const limit = maxConnections ? ` WITH MAX_USER_CONNECTIONS ${Math.trunc(maxConnections)}` : '';
        await run(`CREATE USER ?@? IDENTIFIED BY ?${limit}`, [spec.username, spec.remote, password]);
        made.user = true;
        await run(`GRANT ${DATABASE_GRANTS.join(', ')} ON ${grantDatabasePattern(spec.database)}.* TO ?@?`, [spec.username, spec.remote]);
      } catch (e) {
        await this.undo(run, target, spec, made);
        throw e;
      }
    });
  }

  /** A new password; the old one stops working at once, and sessions opened with it are closed. */
  async rotatePassword(host: DatabaseHostEntity, spec: DatabaseSpec, password: string): Promise<void> {
    const target = this.target(host);
    await this.withConnection(target, { secrets: [password] }, async (run) => {
      await run('ALTER USER ?@? IDENTIFIED BY ?', [spec.username, spec.remote, password]);
      await this.killSessions(run, target, spec.username);
    });
  }

  /** Drops the user (closing its sessions) and then the database with all its data. Safe to repeat. */
  async dropDatabase(host: DatabaseHostEntity, spec: DatabaseSpec): Promise<void> {
    const target = this.target(host);
    await this.withConnection(target, {}, async (run) => {
      await run('DROP USER IF EXISTS ?@?', [spec.username, spec.remote]);
      await this.killSessions(run, target, spec.username);
      await run(`DROP DATABASE IF EXISTS ${quoteIdentifier(spec.database)}`);
    });
  }

  private target(host: DatabaseHostEntity): HostTarget {
    return { id: host.id, host: host.host, port: host.port, username: host.username, password: this.secrets.open(host.password, hostPasswordContext(host)) };
  }

  private async undo(run: Runner, target: HostTarget, spec: DatabaseSpec, made: { database: boolean; user: boolean }): Promise<void> {
    const steps: [boolean, string, string[]][] = [
      [made.user, 'DROP USER IF EXISTS ?@?', [spec.username, spec.remote]],
      [made.database, `DROP DATABASE IF EXISTS ${quoteIdentifier(spec.database)}`, []],
    ];
    for (const [needed, sql, values] of steps) {
      if (!needed) {
        continue;
      }
      try {
        await run(sql, values);
      } catch (e) {
        // The original error is what the caller needs; this one is for the operator.
        this.logger.error(
          { hostId: target.id, database: spec.database, username: spec.username, error: (e as Error).message },
          'could not undo a failed database creation; remove the leftovers on the host by hand',
        );
      }
    }
  }

  /** Best effort: needs PROCESS and CONNECTION ADMIN (or SUPER); without them old sessions just live on. */
  private async killSessions(run: Runner, target: HostTarget, username: string): Promise<void> {
    try {
      const sessions = await run<{ id: number }[]>('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER = ?', [username]);
      for (const { id } of sessions) {
        await run(`KILL CONNECTION ${Math.trunc(Number(id))}`).catch((e: MySqlError) => {
          // ER_NO_SUCH_THREAD: it ended on its own meanwhile.
          if (e.errno !== 1094) {
            throw e;
          }
        });
      }
    } catch (e) {
      this.logger.warn({ hostId: target.id, username, error: (e as Error).message }, 'could not close the sessions of a database user');
    }
  }

  /**
   * Opens a connection, runs `fn` with a statement runner and closes it. Every error leaves as an
   * AppException whose message has `secrets` cut out; with `conflicts`, "already exists" errors
   * become HOST_CONFLICT (creation only: elsewhere a missing user is no conflict).
   */
  private async withConnection<T>(
    target: HostTarget,
    { secrets = [], conflicts = false }: { secrets?: string[]; conflicts?: boolean },
    fn: (run: Runner) => Promise<T>,
  ): Promise<T> {
    const redact = (text: string): string => [target.password, ...secrets].filter((s) => s.length > 0).reduce((t, s) => t.split(s).join('[redacted]'), text);
    let connection: Connection;
    try {
      // mysql2 is loaded on the first use of a database host, not by every panel at boot.
      const { createConnection } = await import('mysql2/promise');
      connection = await createConnection({
        host: target.host,
        port: target.port,
        user: target.username,
        password: target.password,
        connectTimeout: CONNECT_TIMEOUT_MS,
        multipleStatements: false,
        supportBigNumbers: true,
      });
    } catch (e) {
      throw this.translate(e, 'connect', target, redact, false);
    }
    // A connection that breaks between statements emits 'error'; without a listener that would crash the process.
    connection.on('error', () => undefined);
    const run: Runner = async <R>(sql: string, values: unknown[] = []): Promise<R> => {
      const [rows] = await connection.query({ sql, values, timeout: STATEMENT_TIMEOUT_MS });
      return rows as R;
    };
    try {
      return await fn(run);
    } catch (e) {
      throw this.translate(e, 'statement', target, redact, conflicts);
    } finally {
      await connection.end().catch(() => connection.destroy());
    }
  }

  private translate(e: unknown, phase: Phase, target: HostTarget, redact: (text: string) => string, conflicts: boolean): AppException {
    if (e instanceof AppException) {
      return e;
    }
    const err = e as MySqlError;
    const reason = redact(err.sqlMessage ?? err.message ?? String(e));
    const details = { hostId: target.id, code: err.code ?? null };
    if (phase === 'connect' || err.fatal) {
      return new AppException(DatabaseError.HOST_UNAVAILABLE, { message: `database host unavailable: ${reason}`, details });
    }
    if (conflicts && err.errno !== undefined && CONFLICT_ERRNOS.has(err.errno)) {
      return new AppException(DatabaseError.HOST_CONFLICT, { message: `${DatabaseError.HOST_CONFLICT.message}: ${reason}`, details });
    }
    return new AppException(DatabaseError.HOST_ERROR, { message: `${DatabaseError.HOST_ERROR.message}: ${reason}`, details });
  }
}

type Runner = <R = unknown>(sql: string, values?: unknown[]) => Promise<R>;
