import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

/** The layer's own refusals, with Pterodactyl's messages (its middleware and exception handler). */
export const PterodactylError = {
  UNAUTHENTICATED: { code: 'PTERODACTYL_UNAUTHENTICATED', category: ErrorCategory.UNAUTHENTICATED, message: 'Unauthenticated.' },
  UNAUTHORIZED: { code: 'PTERODACTYL_FORBIDDEN', category: ErrorCategory.FORBIDDEN, message: 'This action is unauthorized.' },
  ACCOUNT_SUSPENDED: {
    code: 'PTERODACTYL_ACCOUNT_SUSPENDED',
    category: ErrorCategory.FORBIDDEN,
    message: 'This account is suspended; an administrator can lift the suspension.',
  },
  NOT_ADMIN: {
    code: 'PTERODACTYL_NOT_ADMIN',
    category: ErrorCategory.FORBIDDEN,
    message: 'This account does not have permission to access the API.',
  },
  // Pterodactyl answers 400 TwoFactorAuthRequiredException to an API request of an account its 2fa_required setting holds.
  TWO_FACTOR_REQUIRED: {
    code: 'PTERODACTYL_2FA_REQUIRED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Two-factor authentication is required on this account in order to access this endpoint.',
  },
  APPLICATION_KEY_ON_CLIENT: {
    code: 'PTERODACTYL_WRONG_KEY_TYPE',
    category: ErrorCategory.FORBIDDEN,
    message: 'You are attempting to use an application API key on an endpoint that requires a client API key.',
  },
  IP_NOT_ALLOWED: { code: 'PTERODACTYL_IP_NOT_ALLOWED', category: ErrorCategory.FORBIDDEN, message: 'This IP address does not have permission to access the API using these credentials.' },
  NOT_FOUND: { code: 'PTERODACTYL_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'The requested resource could not be found on the server.' },
  // The account's password, e-mail and two-factor (AccountController, TwoFactorController, their requests).
  INVALID_PASSWORD: { code: 'PTERODACTYL_INVALID_PASSWORD', category: ErrorCategory.BAD_REQUEST, message: 'The password provided was invalid for this account.' },
  TWO_FACTOR_PASSWORD: { code: 'PTERODACTYL_2FA_PASSWORD_INVALID', category: ErrorCategory.BAD_REQUEST, message: 'The password provided was not valid.' },
  TWO_FACTOR_TOKEN_INVALID: {
    code: 'PTERODACTYL_2FA_TOKEN_INVALID',
    category: ErrorCategory.BAD_REQUEST,
    message: 'The provided two-factor authentication token was not valid.',
  },
  TWO_FACTOR_ENABLED: { code: 'PTERODACTYL_2FA_ENABLED', category: ErrorCategory.BAD_REQUEST, message: 'Two-factor authentication is already enabled on this account.' },
  TWO_FACTOR_NOT_SET_UP: {
    code: 'PTERODACTYL_2FA_NOT_SET_UP',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Two-factor authentication has not been set up: fetch a secret with GET /api/client/account/two-factor first.',
  },
  INVALID_FILTER: { code: 'PTERODACTYL_INVALID_FILTER', category: ErrorCategory.BAD_REQUEST, message: 'Requested filter(s) are not allowed.' },
  INVALID_SORT: { code: 'PTERODACTYL_INVALID_SORT', category: ErrorCategory.BAD_REQUEST, message: 'Requested sort(s) are not allowed. Allowed sort(s) are `timestamp`.' },
} satisfies Record<string, ErrorDef>;
