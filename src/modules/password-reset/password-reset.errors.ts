import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const PasswordResetError = {
  // One answer for unknown, used and expired tokens alike.
  INVALID_TOKEN: {
    code: 'PASSWORD_RESET_TOKEN_INVALID',
    category: ErrorCategory.BAD_REQUEST,
    message: 'This password reset link is invalid, was already used or has expired; request a new one',
  },
  LINK_FOR_SELF: {
    code: 'PASSWORD_LINK_FOR_SELF',
    category: ErrorCategory.CONFLICT,
    message: 'You cannot make a password link for your own account; change your password in your account settings',
  },
  PASSWORD_ALREADY_SET: {
    code: 'PASSWORD_ALREADY_SET',
    category: ErrorCategory.CONFLICT,
    message: 'This account already has a password; change it with the current one in your account settings',
  },
} satisfies Record<string, ErrorDef>;
