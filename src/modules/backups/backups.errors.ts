import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const BackupError = {
  NOT_FOUND: { code: 'BACKUP_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Backup not found' },
  DISABLED: {
    code: 'BACKUPS_DISABLED',
    category: ErrorCategory.CONFLICT,
    message: 'Backups are not enabled for this server (its backup limit is 0)',
  },
  LIMIT_REACHED: { code: 'BACKUP_LIMIT_REACHED', category: ErrorCategory.CONFLICT, message: 'This server has reached its backup limit' },
  LOCKED: { code: 'BACKUP_LOCKED', category: ErrorCategory.CONFLICT, message: 'The backup is locked; unlock it before deleting it' },
  IN_PROGRESS: { code: 'BACKUP_IN_PROGRESS', category: ErrorCategory.CONFLICT, message: 'The backup is still being made' },
  NOT_SUCCESSFUL: { code: 'BACKUP_NOT_SUCCESSFUL', category: ErrorCategory.CONFLICT, message: 'Only a completed, successful backup can be used' },
  SERVER_NOT_INSTALLED: {
    code: 'SERVER_NOT_INSTALLED',
    category: ErrorCategory.CONFLICT,
    message: 'The server has not finished installing; reinstall it first',
  },
  LOCK_NOT_ALLOWED: {
    code: 'SERVER_PERMISSION_DENIED',
    category: ErrorCategory.FORBIDDEN,
    message: 'Creating a locked backup requires the server.backup.delete permission on this server',
  },
  /** An S3 call failed; the message carries S3's error code and text. */
  STORAGE_FAILED: { code: 'BACKUP_STORAGE_FAILED', category: ErrorCategory.BAD_GATEWAY, message: 'The backup storage refused the request' },
  /** Part URLs asked for a backup that does not go to S3 (Wings' GET /api/remote/backups/{uuid}). */
  NOT_S3: { code: 'BACKUP_NOT_S3', category: ErrorCategory.BAD_REQUEST, message: 'The backup is not stored on S3' },
  /** Part URLs asked for a backup of a server on another node. */
  OTHER_NODE: { code: 'BACKUP_OTHER_NODE', category: ErrorCategory.FORBIDDEN, message: 'You do not have permission to access that backup.' },
  /** Part URLs asked for a backup that has already reported its result. */
  COMPLETED: { code: 'BACKUP_ALREADY_COMPLETED', category: ErrorCategory.CONFLICT, message: 'This backup is already in a completed state.' },
  BAD_SIZE: {
    code: 'VALIDATION_FAILED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'A non-empty "size" query parameter must be provided (bytes, at most 5 TiB).',
  },
  HOST_NOT_FOUND: { code: 'BACKUP_HOST_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Backup host not found' },
  HOST_NAME_TAKEN: { code: 'BACKUP_HOST_NAME_TAKEN', category: ErrorCategory.CONFLICT, message: 'A backup host with this name exists' },
  HOST_IN_USE: {
    code: 'BACKUP_HOST_IN_USE',
    category: ErrorCategory.CONFLICT,
    message: 'The backup host is still used by nodes or holds backups; move them away first',
  },
  /** Daemon callback for a backup that already reported its result. */
  ALREADY_COMPLETED: {
    code: 'BACKUP_ALREADY_COMPLETED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Cannot update the status of a backup that is already marked as completed.',
  },
} satisfies Record<string, ErrorDef>;
