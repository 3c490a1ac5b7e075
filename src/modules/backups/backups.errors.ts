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
  /** Daemon callback for a backup that already reported its result. */
  ALREADY_COMPLETED: {
    code: 'BACKUP_ALREADY_COMPLETED',
    category: ErrorCategory.BAD_REQUEST,
    message: 'Cannot update the status of a backup that is already marked as completed.',
  },
} satisfies Record<string, ErrorDef>;
