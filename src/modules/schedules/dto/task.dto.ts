import { IsBoolean, IsIn, IsInt, Max, Min, ValidateBy } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { POWER_ACTIONS } from 'src/modules/daemon-gateway/daemon.gateway';
import { TASK_ACTIONS, TaskAction } from 'src/modules/schedules/schedule-task.entity';

const TASK_TIME_OFFSET_MAX = 3600;
const COMMAND_MAX_LENGTH = 4096;
const BACKUP_NAME_MAX_LENGTH = 191;

/** What is wrong with `payload` for `action`, or null. An unknown action is reported on `action` alone. */
const taskPayloadError = (action: unknown, payload: unknown): string | null => {
  switch (action) {
    case 'command':
      if (typeof payload !== 'string' || payload.trim().length === 0) {
        return 'payload must be the command to send';
      }
      return payload.length > COMMAND_MAX_LENGTH ? `payload must be at most ${COMMAND_MAX_LENGTH} characters` : null;
    case 'power':
      return typeof payload === 'string' && (POWER_ACTIONS as readonly string[]).includes(payload)
        ? null
        : `payload must be one of the following values: ${POWER_ACTIONS.join(', ')}`;
    case 'backup':
      if (payload === undefined) {
        return null;
      }
      if (typeof payload !== 'string') {
        return 'payload must be the backup name';
      }
      return payload.length > BACKUP_NAME_MAX_LENGTH ? `payload must be at most ${BACKUP_NAME_MAX_LENGTH} characters` : null;
    default:
      return null;
  }
};

export class CreateTaskDto {
  @IsIn(TASK_ACTIONS)
  action!: TaskAction;

  /** The command (command), start|stop|restart|kill (power), or the backup name (backup, optional). */
  @ValidateBy({
    name: 'taskPayload',
    validator: {
      validate: (value: unknown, args) => taskPayloadError((args?.object as CreateTaskDto).action, value) === null,
      defaultMessage: (args) => taskPayloadError((args?.object as CreateTaskDto).action, args?.value) ?? 'payload is not valid',
    },
  })
  payload?: string;

  /** Seconds to wait before this task runs, 0 to 3600; defaults to 0. */
  @Optional()
  @IsInt()
  @Min(0)
  @Max(TASK_TIME_OFFSET_MAX)
  time_offset?: number;

  /** Defaults to false: a failure of this task stops the tasks after it. */
  @Optional()
  @IsBoolean()
  continue_on_failure?: boolean;
}
