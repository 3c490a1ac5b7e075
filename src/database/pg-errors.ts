import { QueryFailedError } from 'typeorm';

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** The PostgreSQL error a failed statement carries: its SQLSTATE, constraint and detail. */
export const pgError = (e: unknown): { code: string; constraint: string; detail: string } | undefined => {
  if (!(e instanceof QueryFailedError)) {
    return undefined;
  }
  const { code = '', constraint = '', detail = '' } = e.driverError as { code?: string; constraint?: string; detail?: string };
  return { code, constraint, detail };
};

export const isUniqueViolation = (e: unknown): boolean => pgError(e)?.code === UNIQUE_VIOLATION;
