import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const ApiKeyError = {
  NOT_FOUND: { code: 'API_KEY_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'API key not found' },
  LIMIT_REACHED: {
    code: 'API_KEY_LIMIT_REACHED',
    category: ErrorCategory.CONFLICT,
    message: 'You have reached the limit of 25 API keys; revoke one first',
  },
  SCOPE_EXCEEDS_OWNER: {
    code: 'API_KEY_SCOPE_EXCEEDS_OWNER',
    category: ErrorCategory.FORBIDDEN,
    message: 'An API key cannot carry permissions its owner does not have',
  },
} satisfies Record<string, ErrorDef>;
