import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const PasskeyError = {
  NOT_FOUND: { code: 'PASSKEY_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Passkey not found' },
  LIMIT_REACHED: { code: 'PASSKEY_LIMIT_REACHED', category: ErrorCategory.CONFLICT, message: 'You have reached the limit of 25 passkeys; remove one first' },
  EXISTS: { code: 'PASSKEY_EXISTS', category: ErrorCategory.CONFLICT, message: 'This passkey is already registered' },
  CHALLENGE_INVALID: {
    code: 'PASSKEY_CHALLENGE_INVALID',
    category: ErrorCategory.BAD_REQUEST,
    message: 'The passkey answered a challenge that is unknown, expired or already used: ask for new options and try again',
  },
  REGISTRATION_INVALID: {
    code: 'PASSKEY_REGISTRATION_INVALID',
    category: ErrorCategory.BAD_REQUEST,
    message: 'The new passkey could not be verified',
  },
  // Sign-in: the assertion did not verify (unknown passkey, wrong site, bad signature, cloned authenticator).
  INVALID: { code: 'PASSKEY_INVALID', category: ErrorCategory.UNAUTHENTICATED, message: 'The passkey could not be verified' },
  NONE: { code: 'PASSKEY_NONE', category: ErrorCategory.CONFLICT, message: 'This account has no passkey' },
} satisfies Record<string, ErrorDef>;
