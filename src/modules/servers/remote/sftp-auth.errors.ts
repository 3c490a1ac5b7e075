import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const SftpError = {
  INVALID_CREDENTIALS: {
    code: 'SFTP_INVALID_CREDENTIALS',
    category: ErrorCategory.FORBIDDEN,
    message: 'Authorization credentials were not correct, please try again.',
  },
  SERVER_NOT_FOUND: { code: 'SFTP_SERVER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'No such server on this node' },
  SERVER_BUSY: { code: 'SFTP_SERVER_UNAVAILABLE', category: ErrorCategory.CONFLICT, message: 'The server is not available for SFTP right now' },
  TOO_MANY_ATTEMPTS: {
    code: 'SFTP_TOO_MANY_ATTEMPTS',
    category: ErrorCategory.RATE_LIMITED,
    message: 'Too many failed SFTP logins from this address; try again later',
  },
} satisfies Record<string, ErrorDef>;
