import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const UserError = {
  NOT_FOUND: { code: 'USER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'User not found' },
  EMAIL_TAKEN: { code: 'USER_EMAIL_TAKEN', category: ErrorCategory.CONFLICT, message: 'A user with this e-mail already exists' },
  EXTERNAL_ID_TAKEN: {
    code: 'USER_EXTERNAL_ID_TAKEN',
    category: ErrorCategory.CONFLICT,
    message: 'A user with this external id already exists',
  },
  USERNAME_TAKEN: { code: 'USER_USERNAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'A user with this username already exists' },
  CANNOT_DELETE_SELF: { code: 'USER_CANNOT_DELETE_SELF', category: ErrorCategory.CONFLICT, message: 'You cannot delete your own account' },
  LAST_ADMIN: {
    code: 'USER_LAST_ADMIN',
    category: ErrorCategory.CONFLICT,
    message: 'The last administrator cannot be removed or demoted',
  },
  HAS_SERVERS: {
    code: 'USER_HAS_SERVERS',
    category: ErrorCategory.CONFLICT,
    message: 'The user owns servers; delete or transfer them first',
  },
  PRIVILEGED: {
    code: 'USER_PRIVILEGED',
    category: ErrorCategory.FORBIDDEN,
    message: 'Only a full administrator can change an administrator or a role holder, make an administrator, or give roles',
  },
  ROLE_NOT_FOUND: { code: 'ROLE_NOT_FOUND', category: ErrorCategory.BAD_REQUEST, message: 'No administrator role has this id' },
  CANNOT_SUSPEND_SELF: { code: 'USER_CANNOT_SUSPEND_SELF', category: ErrorCategory.CONFLICT, message: 'You cannot suspend your own account' },
  INVALID_PASSWORD: { code: 'INVALID_PASSWORD', category: ErrorCategory.BAD_REQUEST, message: 'The password given is not correct' },
} satisfies Record<string, ErrorDef>;
