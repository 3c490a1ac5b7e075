import { AppException } from 'src/common/errors/app.exception';
import type { TaskAction } from 'src/modules/schedules/schedule-task.entity';
import type { ServerAccess } from 'src/modules/servers/server-access';
import type { ServerPermission } from 'src/modules/servers/server-permissions';
import { ServerError } from 'src/modules/servers/servers.errors';

/**
 * The permission a caller needs to do by hand what a task does: a schedule must not let its
 * author reach the daemon in ways the same author is refused directly.
 */
const TASK_PERMISSION = {
  command: 'server.console',
  power: 'server.power',
  backup: 'server.backup.create',
} as const satisfies Record<TaskAction, ServerPermission>;

/** 403 naming the first permission the caller lacks among those the given task actions need. */
export const requireTaskPermissions = (access: ServerAccess, actions: Iterable<TaskAction>): void => {
  for (const action of new Set(actions)) {
    const permission = TASK_PERMISSION[action];
    if (!access.permissions.includes(permission)) {
      throw new AppException(ServerError.PERMISSION_DENIED, {
        message: `A ${action} task requires the ${permission} permission on this server`,
        details: { action, permission },
      });
    }
  }
};
