import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const ScheduleError = {
  NOT_FOUND: { code: 'SCHEDULE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Schedule not found' },
  TASK_NOT_FOUND: { code: 'SCHEDULE_TASK_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'Task not found' },
  TASK_LIMIT_REACHED: {
    code: 'SCHEDULE_TASK_LIMIT_REACHED',
    category: ErrorCategory.CONFLICT,
    message: 'This schedule already has the most tasks a schedule may have',
  },
  ALREADY_RUNNING: { code: 'SCHEDULE_ALREADY_RUNNING', category: ErrorCategory.CONFLICT, message: 'The schedule is already running' },
  NO_TASKS: { code: 'SCHEDULE_HAS_NO_TASKS', category: ErrorCategory.CONFLICT, message: 'The schedule has no tasks to run' },
  SERVER_NOT_READY: {
    code: 'SCHEDULE_SERVER_NOT_READY',
    category: ErrorCategory.CONFLICT,
    message: 'The server cannot run schedules right now',
  },
} satisfies Record<string, ErrorDef>;
