import { QueryFailedError } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import type { ErrorDef } from 'src/common/errors/error-codes';

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
