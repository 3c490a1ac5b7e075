import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

/** docs/api.md#live-status. Frame errors travel in `error` frames; the HTTP ones answer the upgrade request. */
export const LiveStatusError = {
  UPGRADE_REQUIRED: {
    code: 'UPGRADE_REQUIRED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'This endpoint is a WebSocket: connect with an Upgrade: websocket request',
  },
  TOO_MANY_SERVERS: { code: 'TOO_MANY_SERVERS', category: ErrorCategory.BAD_REQUEST, message: 'At most 100 servers can be watched at once' },
  LOOKUPS_EXHAUSTED: {
    code: 'RATE_LIMITED',
    category: ErrorCategory.RATE_LIMITED,
    message: 'This connection has looked up too many servers; subscribe again later',
  },
  SUBSCRIBE_INVALID: {
    code: 'VALIDATION_FAILED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'subscribe takes {"servers": [<server uuid>, ...]}',
  },
} satisfies Record<string, ErrorDef>;

/** Close codes of the live-status socket: the credential stopped working (as HTTP 401). */
export const CLOSE_UNAUTHENTICATED = 4401;
/** The account already holds LIVE_STATUS_MAX_SOCKETS_PER_USER sockets: the new one is closed at once (as HTTP 429). */
export const CLOSE_TOO_MANY_SOCKETS = 4429;
