import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const DatabaseError = {
  NOT_FOUND: { code: 'DATABASE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Database not found' },
  LIMIT_REACHED: {
    code: 'DATABASE_LIMIT_REACHED',
    category: ErrorCategory.CONFLICT,
    message: 'This server has reached its database limit',
  },
  NO_HOST: {
    code: 'NO_DATABASE_HOST',
    category: ErrorCategory.CONFLICT,
    message: 'No database host can take a database for this server; ask an administrator to add one',
  },
  NAME_TAKEN: { code: 'DATABASE_NAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'This server already has a database with that name' },
  REVOKING: { code: 'DATABASE_REVOKING', category: ErrorCategory.CONFLICT, message: 'The database is being deleted' },
  /** The host already holds a database or user of that name that the panel did not make. */
  HOST_CONFLICT: {
    code: 'DATABASE_HOST_CONFLICT',
    category: ErrorCategory.CONFLICT,
    message: 'The database host already has a database or user with this name',
  },
  /** Connection refused, timed out or not accepted: 503, as for an unreachable daemon. */
  HOST_UNAVAILABLE: { code: 'DATABASE_HOST_UNAVAILABLE', category: ErrorCategory.UNAVAILABLE, message: 'database host unavailable' },
  /** The host was reached and refused a statement. */
  HOST_ERROR: { code: 'DATABASE_HOST_ERROR', category: ErrorCategory.BAD_GATEWAY, message: 'The database host refused the operation' },
  HOST_NOT_FOUND: { code: 'DATABASE_HOST_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Database host not found' },
  HOST_NAME_TAKEN: { code: 'DATABASE_HOST_NAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'A database host with this name exists' },
  HOST_HAS_DATABASES: {
    code: 'DATABASE_HOST_HAS_DATABASES',
    category: ErrorCategory.CONFLICT,
    message: 'The database host still has databases and cannot be deleted',
  },
} satisfies Record<string, ErrorDef>;
