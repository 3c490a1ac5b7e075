import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const SshKeyError = {
  NOT_FOUND: { code: 'SSH_KEY_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'SSH key not found' },
  EXISTS: { code: 'SSH_KEY_EXISTS', category: ErrorCategory.CONFLICT, message: 'This SSH key is already on your account' },
  LIMIT_REACHED: { code: 'SSH_KEY_LIMIT_REACHED', category: ErrorCategory.CONFLICT, message: 'You have reached the limit of 25 SSH keys; remove one first' },
} satisfies Record<string, ErrorDef>;
