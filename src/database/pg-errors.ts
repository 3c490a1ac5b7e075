import { QueryFailedError } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import type { ErrorDef } from 'src/common/errors/error-codes';
import type { DatabaseConfig } from 'src/config/app-config.service';

export const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** What PostgreSQL 16 and later (and so PGlite) raise for an ON DELETE RESTRICT key; 15 raises 23503. */
const RESTRICT_VIOLATION = '23001';

/** The PostgreSQL error a failed statement carries: its SQLSTATE, constraint and detail. */
export const pgError = (e: unknown): { code: string; constraint: string; detail: string } | undefined => {
  if (!(e instanceof QueryFailedError)) {
    return undefined;
  }
  const { code = '', constraint = '', detail = '' } = e.driverError as { code?: string; constraint?: string; detail?: string };
  return { code, constraint, detail };
};

export const isUniqueViolation = (e: unknown): boolean => pgError(e)?.code === UNIQUE_VIOLATION;

const NAMED_VIOLATIONS = new Set([UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION]);

/**
 * Unique and foreign-key violations of the named constraints become their errors (a 409 where a row
 * is taken or still referenced); anything else is rethrown. Use as `.catch(violations({...}))`.
 */
export const violations =
  (byConstraint: Record<string, ErrorDef>) =>
  (e: unknown): never => {
    const error = pgError(e);
    if (error) {
      const { code, constraint } = error;
      const def = NAMED_VIOLATIONS.has(code) && constraint ? byConstraint[constraint] : undefined;
      if (def) {
        throw new AppException(def);
      }
    }
    throw e;
  };

/** A connection URL's port: PostgreSQL's own when it names none (or cannot be read as a URL). */
const portOf = (url: string): number => {
  try {
    return Number(new URL(url).port || 5432);
  } catch {
    return 5432;
  }
};

/** The ports the panel's PostgreSQL connections go to (DATABASE_URL, DATABASE_DIRECT_URL); none on the embedded database. */
export const databasePorts = (db: DatabaseConfig): ReadonlySet<number> => new Set(db.kind === 'postgres' ? [db.url, db.directUrl].map(portOf) : []);

/** SQLSTATEs of a server that cannot serve now: connection exceptions, shutting down or starting up, too many connections. */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** node-postgres' and pg-pool's own words for a connection lost, or not given in time (they carry no code). */
const CONNECTION_LOST = /^Connection terminated|^timeout exceeded when trying to connect/;

/**
 * Whether `e` says the database cannot be reached or cannot serve (a 503, not a bug): a SQLSTATE of
 * UNAVAILABLE_STATE, a connection lost (CONNECTION_LOST), or a connection to one of the database's
 * ports refused or unreachable (a network error naming that port: other services' are not the database's).
 */
export const isDatabaseUnavailable = (e: unknown, ports: ReadonlySet<number>): boolean => {
  const error = e instanceof QueryFailedError ? (e.driverError as unknown) : e;
  if (typeof error !== 'object' || error === null) {
    return false;
  }
  const { code, message, port, errors } = error as { code?: unknown; message?: unknown; port?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || (code.startsWith('E') && typeof port === 'number' && ports.has(port)))) {
    return true;
  }
  if (Array.isArray(errors)) {
    return errors.some((part) => isDatabaseUnavailable(part, ports));
  }
  return typeof message === 'string' && CONNECTION_LOST.test(message);
};
