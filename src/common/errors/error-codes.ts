import { HttpStatus } from '@nestjs/common';

export enum ErrorCategory {
  BAD_REQUEST = 'BAD_REQUEST',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED = 'RATE_LIMITED',
  INTERNAL = 'INTERNAL',
  BAD_GATEWAY = 'BAD_GATEWAY',
  UNAVAILABLE = 'UNAVAILABLE',
  GATEWAY_TIMEOUT = 'GATEWAY_TIMEOUT',
}

export const CATEGORY_STATUS = {
  [ErrorCategory.BAD_REQUEST]: HttpStatus.BAD_REQUEST,
  [ErrorCategory.UNAUTHENTICATED]: HttpStatus.UNAUTHORIZED,
  [ErrorCategory.FORBIDDEN]: HttpStatus.FORBIDDEN,
  [ErrorCategory.NOT_FOUND]: HttpStatus.NOT_FOUND,
  [ErrorCategory.CONFLICT]: HttpStatus.CONFLICT,
  [ErrorCategory.PAYLOAD_TOO_LARGE]: HttpStatus.PAYLOAD_TOO_LARGE,
  [ErrorCategory.RATE_LIMITED]: HttpStatus.TOO_MANY_REQUESTS,
  [ErrorCategory.INTERNAL]: HttpStatus.INTERNAL_SERVER_ERROR,
  [ErrorCategory.BAD_GATEWAY]: HttpStatus.BAD_GATEWAY,
  [ErrorCategory.UNAVAILABLE]: HttpStatus.SERVICE_UNAVAILABLE,
  [ErrorCategory.GATEWAY_TIMEOUT]: HttpStatus.GATEWAY_TIMEOUT,
} satisfies Record<ErrorCategory, HttpStatus>;

/** One error a feature can raise: its stable code, its category (hence status) and default message. */
export interface ErrorDef {
  code: string;
  category: ErrorCategory;
  message: string;
}

/** Errors that belong to no single feature. */
export const CommonError = {
  VALIDATION_FAILED: { code: 'VALIDATION_FAILED', category: ErrorCategory.BAD_REQUEST, message: 'Validation failed' },
  INVALID_JSON: { code: 'INVALID_JSON', category: ErrorCategory.BAD_REQUEST, message: 'The request body is not valid JSON' },
  JSON_TOO_DEEP: { code: 'JSON_TOO_DEEP', category: ErrorCategory.BAD_REQUEST, message: 'The request body nests too deeply' },
  BAD_REQUEST: { code: 'BAD_REQUEST', category: ErrorCategory.BAD_REQUEST, message: 'Bad request' },
  UNAUTHENTICATED: { code: 'UNAUTHENTICATED', category: ErrorCategory.UNAUTHENTICATED, message: 'Authentication required' },
  FORBIDDEN: { code: 'FORBIDDEN', category: ErrorCategory.FORBIDDEN, message: 'You do not have permission to perform this action' },
  ROUTE_NOT_FOUND: { code: 'ROUTE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Not found' },
  PAYLOAD_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', category: ErrorCategory.PAYLOAD_TOO_LARGE, message: 'The request body is too large' },
  INTERNAL_ERROR: { code: 'INTERNAL_ERROR', category: ErrorCategory.INTERNAL, message: 'Internal server error' },
  DATABASE_UNAVAILABLE: { code: 'DATABASE_UNAVAILABLE', category: ErrorCategory.UNAVAILABLE, message: 'The database is unavailable' },
  SHUTTING_DOWN: { code: 'SHUTTING_DOWN', category: ErrorCategory.UNAVAILABLE, message: 'The panel is shutting down' },
} satisfies Record<string, ErrorDef>;
