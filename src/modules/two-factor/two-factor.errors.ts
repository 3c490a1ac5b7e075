import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const TwoFactorError = {
  // Sign-in: the password was right, the second factor is missing or wrong; no session is made.
  REQUIRED: {
    code: 'TWO_FACTOR_REQUIRED',
    category: ErrorCategory.UNAUTHENTICATED,
    message:
      'A second factor is needed: send the code from your authenticator app (or a recovery code), or a passkey (details.methods), with details.challenge to POST /api/auth/two-factor',
  },
  INVALID: {
    code: 'TWO_FACTOR_INVALID',
    category: ErrorCategory.UNAUTHENTICATED,
    message: 'The two-factor code is not valid, or was already used',
  },
  CHALLENGE_INVALID: {
    code: 'TWO_FACTOR_CHALLENGE_INVALID',
    category: ErrorCategory.UNAUTHENTICATED,
    message: 'This sign-in step is unknown, expired, used, or had too many wrong codes: sign in again with your password',
  },
  // Account settings, for a signed-in user.
  INCORRECT_CODE: {
    code: 'INVALID_TWO_FACTOR_CODE',
    category: ErrorCategory.BAD_REQUEST,
    message: 'The code does not match the secret; check the time on the device and try the current code',
  },
  NOT_SET_UP: {
    code: 'TWO_FACTOR_NOT_SET_UP',
    category: ErrorCategory.CONFLICT,
    message: 'Start with POST /api/user/2fa/setup, then confirm with a code',
  },
  CODE_REQUIRED: {
    code: 'TWO_FACTOR_CODE_REQUIRED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Two-factor sign-in is enabled: give the current code from the authenticator app (or a recovery code) as well',
  },
  ALREADY_ENABLED: { code: 'TWO_FACTOR_ALREADY_ENABLED', category: ErrorCategory.CONFLICT, message: 'Two-factor sign-in is already enabled' },
  NOT_ENABLED: { code: 'TWO_FACTOR_NOT_ENABLED', category: ErrorCategory.CONFLICT, message: 'Two-factor sign-in is not enabled' },
} satisfies Record<string, ErrorDef>;
