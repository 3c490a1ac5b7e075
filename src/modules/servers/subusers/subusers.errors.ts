import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const SubuserError = {
  NOT_FOUND: { code: 'SUBUSER_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'That user is not a subuser of this server' },
  ALREADY_SUBUSER: { code: 'SUBUSER_EXISTS', category: ErrorCategory.CONFLICT, message: 'That user is already a subuser of this server' },
  IS_OWNER: { code: 'SUBUSER_IS_OWNER', category: ErrorCategory.CONFLICT, message: 'The server owner cannot be added as a subuser' },
  SELF: { code: 'SUBUSER_SELF', category: ErrorCategory.FORBIDDEN, message: 'You cannot change or remove your own subuser entry' },
  UNKNOWN_PERMISSION: { code: 'UNKNOWN_PERMISSION', category: ErrorCategory.BAD_REQUEST, message: 'Unknown server permission' },
  CANNOT_GRANT: {
    code: 'SUBUSER_PERMISSION_NOT_HELD',
    category: ErrorCategory.FORBIDDEN,
    message: 'You cannot grant permissions you do not hold yourself',
  },
} satisfies Record<string, ErrorDef>;
