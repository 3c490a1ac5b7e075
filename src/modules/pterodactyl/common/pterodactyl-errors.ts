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
  APPLICATION_KEY_ON_CLIENT: {
    code: 'PTERODACTYL_WRONG_KEY_TYPE',
    category: ErrorCategory.FORBIDDEN,
    message: 'You are attempting to use an application API key on an endpoint that requires a client API key.',
  },
  IP_NOT_ALLOWED: { code: 'PTERODACTYL_IP_NOT_ALLOWED', category: ErrorCategory.FORBIDDEN, message: 'This IP address does not have permission to access the API using these credentials.' },
  NOT_FOUND: { code: 'PTERODACTYL_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'The requested resource could not be found on the server.' },
} satisfies Record<string, ErrorDef>;
