import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const NodeError = {
  NOT_FOUND: { code: 'NODE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Node not found' },
  BASE_URL_TAKEN: {
    code: 'NODE_BASE_URL_TAKEN',
    category: ErrorCategory.CONFLICT,
    message: 'Another node already uses this scheme, FQDN and daemon port',
  },
  HAS_SERVERS: { code: 'NODE_HAS_SERVERS', category: ErrorCategory.CONFLICT, message: 'The node still has servers and cannot be deleted' },
  /** A node's backupHostId that names no backup host. */
  BACKUP_HOST_UNKNOWN: { code: 'VALIDATION_FAILED', category: ErrorCategory.BAD_REQUEST, message: 'backupHostId names no backup host' },
  LOCATION_NOT_FOUND: { code: 'LOCATION_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Location not found' },
  LOCATION_SHORT_TAKEN: { code: 'LOCATION_SHORT_TAKEN', category: ErrorCategory.CONFLICT, message: 'A location with this short code exists' },
  LOCATION_HAS_NODES: {
    code: 'LOCATION_HAS_NODES',
    category: ErrorCategory.CONFLICT,
    message: 'The location still has nodes and cannot be deleted',
  },
  ALLOCATION_NOT_FOUND: { code: 'ALLOCATION_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Allocation not found' },
  ALLOCATION_EXISTS: {
    code: 'ALLOCATION_EXISTS',
    category: ErrorCategory.CONFLICT,
    message: 'Some of these ports are already allocated on this IP',
  },
  ALLOCATION_ASSIGNED: {
    code: 'ALLOCATION_ASSIGNED',
    category: ErrorCategory.CONFLICT,
    message: 'The allocation belongs to a server; remove it from the server first',
  },
  ALLOCATION_RESERVED: {
    code: 'ALLOCATION_RESERVED',
    category: ErrorCategory.CONFLICT,
    message: 'The allocation is held for a server transfer; wait for it to end or cancel it',
  },
} satisfies Record<string, ErrorDef>;
