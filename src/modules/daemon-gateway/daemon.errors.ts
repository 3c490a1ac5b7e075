import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

/** docs/api.md#daemon-errors. The daemon's own HTTP errors keep its status (see DaemonClient). */
export const DaemonError = {
  UNAVAILABLE: { code: 'DAEMON_UNAVAILABLE', category: ErrorCategory.UNAVAILABLE, message: 'daemon unavailable' },
  TIMEOUT: { code: 'DAEMON_TIMEOUT', category: ErrorCategory.UNAVAILABLE, message: 'daemon unavailable: the request timed out' },
  AUTH_FAILED: { code: 'DAEMON_AUTH_FAILED', category: ErrorCategory.FORBIDDEN, message: 'daemon authentication failed' },
  BAD_RESPONSE: { code: 'DAEMON_BAD_RESPONSE', category: ErrorCategory.BAD_GATEWAY, message: 'The daemon sent a response that could not be read' },
  RESPONSE_TOO_LARGE: {
    code: 'DAEMON_RESPONSE_TOO_LARGE',
    category: ErrorCategory.BAD_GATEWAY,
    message: 'The daemon answered with more data than the panel reads at once',
  },
  UNEXPECTED: {
    code: 'DAEMON_ERROR',
    category: ErrorCategory.INTERNAL,
    message: 'Unexpected daemon error, unable to perform the operation',
  },
  NO_NODE: { code: 'NO_NODE_CONFIGURED', category: ErrorCategory.UNAVAILABLE, message: 'No node is configured; add a node first' },
  NODE_REQUIRED: {
    code: 'NODE_REQUIRED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Several nodes exist; select one with the node query parameter',
  },
} satisfies Record<string, ErrorDef>;
