import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const ServerError = {
  NOT_FOUND: { code: 'SERVER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Server not found' },
  IDENTIFIER_INVALID: { code: 'SERVER_IDENTIFIER_INVALID', category: ErrorCategory.BAD_REQUEST, message: 'Missing server identifier' },
  PERMISSION_DENIED: {
    code: 'SERVER_PERMISSION_DENIED',
    category: ErrorCategory.FORBIDDEN,
    message: 'You do not have permission to perform this action on this server',
  },
  INVALID_POWER_ACTION: {
    code: 'INVALID_POWER_ACTION',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Invalid power action, allowed actions are: start, stop, restart, kill',
  },
  POWER_FAILED: { code: 'POWER_ACTION_FAILED', category: ErrorCategory.INTERNAL, message: 'Failed to send power action' },
  NO_NODE: { code: 'SERVER_NODE_MISSING', category: ErrorCategory.INTERNAL, message: 'The server has no node configured' },
  WEBSOCKET_PREPARE_FAILED: {
    code: 'WEBSOCKET_PREPARE_FAILED',
    category: ErrorCategory.BAD_GATEWAY,
    message: 'Failed to prepare websocket session',
  },
  ALLOCATION_UNAVAILABLE: {
    code: 'ALLOCATION_UNAVAILABLE',
    category: ErrorCategory.CONFLICT,
    message: 'The allocation is not free on this node',
  },
  EXTERNAL_ID_TAKEN: {
    code: 'SERVER_EXTERNAL_ID_TAKEN',
    category: ErrorCategory.CONFLICT,
    message: 'A server with this external id already exists',
  },
  NO_FREE_ALLOCATION: { code: 'NO_FREE_ALLOCATION', category: ErrorCategory.CONFLICT, message: 'The node has no free allocation' },
  ALLOCATION_LIMIT_REACHED: {
    code: 'ALLOCATION_LIMIT_REACHED',
    category: ErrorCategory.CONFLICT,
    message: 'This server has reached its allocation limit',
  },
  /** An allocation limit of 0: the server's allocations are the administrator's to change. */
  ALLOCATIONS_ADMIN_ONLY: {
    code: 'ALLOCATIONS_ADMIN_ONLY',
    category: ErrorCategory.CONFLICT,
    message: "This server's allocations are set by an administrator (its allocation limit is 0)",
  },
  ALLOCATION_IS_PRIMARY: {
    code: 'ALLOCATION_IS_PRIMARY',
    category: ErrorCategory.CONFLICT,
    message: 'The primary allocation cannot be removed; make another one primary first',
  },
  SUSPENDED: { code: 'SERVER_SUSPENDED', category: ErrorCategory.CONFLICT, message: 'The server is suspended' },
  TRANSFERRING: {
    code: 'SERVER_TRANSFERRING',
    category: ErrorCategory.CONFLICT,
    message: 'The server is being transferred to another node; wait for the transfer to end',
  },
  BUSY: { code: 'SERVER_BUSY', category: ErrorCategory.CONFLICT, message: 'The server is busy; wait for it to finish' },
  VARIABLE_NOT_FOUND: { code: 'STARTUP_VARIABLE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'This server has no such startup variable' },
  IMAGE_SET_BY_ADMIN: {
    code: 'DOCKER_IMAGE_SET_BY_ADMIN',
    category: ErrorCategory.BAD_REQUEST,
    message: "This server's Docker image has been set by an administrator and cannot be changed here",
  },
  VARIABLE_READ_ONLY: {
    code: 'STARTUP_VARIABLE_READ_ONLY',
    category: ErrorCategory.FORBIDDEN,
    message: 'The environment variable you are trying to edit is read-only.',
  },
} satisfies Record<string, ErrorDef>;
