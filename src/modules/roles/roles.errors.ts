import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const RoleError = {
  NOT_FOUND: { code: 'ROLE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Administrator role not found' },
  NAME_TAKEN: { code: 'ROLE_NAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'An administrator role with this name already exists' },
  UNKNOWN_NODE: { code: 'ROLE_UNKNOWN_NODE', category: ErrorCategory.BAD_REQUEST, message: 'A node the role names does not exist' },
  DUPLICATE_AREA: { code: 'ROLE_DUPLICATE_AREA', category: ErrorCategory.BAD_REQUEST, message: 'Each area may appear once in permissions' },
  READ_ONLY_AREA: { code: 'ROLE_READ_ONLY_AREA', category: ErrorCategory.BAD_REQUEST, message: 'The audit log can only be read: its access is read' },
} satisfies Record<string, ErrorDef>;
