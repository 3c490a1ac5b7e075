import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const MountError = {
  NOT_FOUND: { code: 'MOUNT_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Mount not found' },
  NAME_TAKEN: { code: 'MOUNT_NAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'A mount with this name exists' },
  IN_USE: { code: 'MOUNT_IN_USE', category: ErrorCategory.CONFLICT, message: 'The mount is attached to servers; detach it from them first' },
  /** Attaching a mount the server's egg or node is not linked to. */
  NOT_LINKED: {
    code: 'MOUNT_NOT_LINKED',
    category: ErrorCategory.CONFLICT,
    message: "The mount is not linked to this server's egg and node; link it on the mount's page first",
  },
  /** The source lies in the data directory of the server's node (moved there after the mount was linked). */
  UNSAFE_ON_NODE: { code: 'MOUNT_UNSAFE_ON_NODE', category: ErrorCategory.CONFLICT, message: "The mount's source lies in this node's data directory" },
} satisfies Record<string, ErrorDef>;
