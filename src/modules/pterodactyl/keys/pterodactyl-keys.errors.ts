import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const PterodactylKeyError = {
  NOT_FOUND: { code: 'PTERODACTYL_KEY_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Pterodactyl API key not found' },
  LIMIT_REACHED: {
    code: 'PTERODACTYL_KEY_LIMIT_REACHED',
    category: ErrorCategory.CONFLICT,
    message: 'You have reached the limit of 25 Pterodactyl API keys of this kind; revoke one first',
  },
} satisfies Record<string, ErrorDef>;
