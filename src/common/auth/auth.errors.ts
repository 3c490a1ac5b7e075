import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const AuthError = {
  UNAUTHENTICATED: { code: 'UNAUTHENTICATED', category: ErrorCategory.UNAUTHENTICATED, message: 'Authentication required' },
  API_KEY_REQUIRED: {
    code: 'API_KEY_REQUIRED',
    category: ErrorCategory.UNAUTHENTICATED,
    message: 'This endpoint requires an API key, given by the Authorization: Bearer header or the x-api-key header',
  },
  SESSION_REQUIRED: {
    code: 'SESSION_REQUIRED',
    category: ErrorCategory.FORBIDDEN,
    message: 'This action requires a signed-in session, not an API key',
  },
  SESSION_NOT_FRESH: {
    code: 'SESSION_NOT_FRESH',
    category: ErrorCategory.FORBIDDEN,
    message: 'This action requires a recent sign-in; sign in again and retry',
  },
  ADMIN_REQUIRED: { code: 'ADMIN_REQUIRED', category: ErrorCategory.FORBIDDEN, message: 'This action requires an administrator' },
  LIMITED_KEY_REFUSED: {
    code: 'API_KEY_LIMITED',
    category: ErrorCategory.FORBIDDEN,
    message: 'An API key limited by scopes cannot manage account credentials; use a session or a key with all of your rights',
  },
  ROLE_FORBIDDEN: { code: 'ADMIN_ROLE_FORBIDDEN', category: ErrorCategory.FORBIDDEN, message: 'Your administrator roles do not grant this action' },
  ROLE_NODE_LIMITED: {
    code: 'ADMIN_ROLE_NODE_LIMITED',
    category: ErrorCategory.FORBIDDEN,
    message: 'This action is open only to administrators whose access covers every node',
  },
  FULL_ADMIN_REQUIRED: { code: 'FULL_ADMIN_REQUIRED', category: ErrorCategory.FORBIDDEN, message: 'This action requires a full administrator' },
  MISSING_SCOPE: { code: 'MISSING_SCOPE', category: ErrorCategory.FORBIDDEN, message: 'The API key lacks the scope this action requires' },
  UNTRUSTED_ORIGIN: {
    code: 'UNTRUSTED_ORIGIN',
    category: ErrorCategory.FORBIDDEN,
    message: 'Cookie-authenticated changes must come from a trusted origin',
  },
  INVALID_CREDENTIALS: { code: 'INVALID_CREDENTIALS', category: ErrorCategory.UNAUTHENTICATED, message: 'Invalid credentials' },
  ACCOUNT_SUSPENDED: {
    code: 'ACCOUNT_SUSPENDED',
    category: ErrorCategory.FORBIDDEN,
    message: 'This account is suspended; an administrator can lift the suspension',
  },
  TWO_FACTOR_SETUP_REQUIRED: {
    code: 'TWO_FACTOR_SETUP_REQUIRED',
    category: ErrorCategory.FORBIDDEN,
    message: 'Two-factor sign-in is required for this account: set up an authenticator app or a passkey first',
  },
  REGISTRATION_DISABLED: { code: 'REGISTRATION_DISABLED', category: ErrorCategory.FORBIDDEN, message: 'Registration is disabled' },
} satisfies Record<string, ErrorDef>;
