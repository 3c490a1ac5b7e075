import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const TransferError = {
  NOT_FOUND: { code: 'TRANSFER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'This server has never been transferred' },
  ALREADY_ACTIVE: { code: 'TRANSFER_ALREADY_ACTIVE', category: ErrorCategory.CONFLICT, message: 'The server is already being transferred' },
  NONE_ACTIVE: { code: 'TRANSFER_NOT_ACTIVE', category: ErrorCategory.CONFLICT, message: 'The server has no transfer in progress' },
  /** A node reported on a transfer that has already ended (completed, failed, cancelled or timed out). */
  ENDED: { code: 'TRANSFER_ENDED', category: ErrorCategory.CONFLICT, message: 'The transfer has already ended; nothing was changed' },
  WRONG_NODE: { code: 'TRANSFER_WRONG_NODE', category: ErrorCategory.FORBIDDEN, message: 'This node may not report this about the transfer' },
  TARGET_NODE_NOT_FOUND: { code: 'TRANSFER_TARGET_NODE_NOT_FOUND', category: ErrorCategory.BAD_REQUEST, message: 'The target node does not exist' },
  SAME_NODE: { code: 'TRANSFER_SAME_NODE', category: ErrorCategory.BAD_REQUEST, message: 'The server is already on this node' },
  NO_ROOM: { code: 'TRANSFER_NO_ROOM', category: ErrorCategory.CONFLICT, message: 'The target node has no room for this server (memory or disk beyond its overallocation)' },
  DRAIN_RUNNING: { code: 'DRAIN_ALREADY_RUNNING', category: ErrorCategory.CONFLICT, message: 'The node is already being drained' },
  DRAIN_NOT_FOUND: { code: 'DRAIN_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'This node has never been drained' },
  DRAIN_NOT_RUNNING: { code: 'DRAIN_NOT_RUNNING', category: ErrorCategory.CONFLICT, message: 'The node is not being drained' },
  DRAIN_TARGETS_INVALID: { code: 'DRAIN_TARGETS_INVALID', category: ErrorCategory.BAD_REQUEST, message: 'The target nodes must exist and differ from the drained node' },
} satisfies Record<string, ErrorDef>;
