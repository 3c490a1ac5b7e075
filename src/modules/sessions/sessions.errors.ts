import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const SessionError = {
  NOT_FOUND: { code: 'SESSION_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Session not found' },
} satisfies Record<string, ErrorDef>;
