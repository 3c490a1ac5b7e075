import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { ScheduleError } from 'src/modules/schedules/schedules.errors';
import type { LoadedServer } from 'src/modules/servers/servers.repository';

/**
 * Where a `backup` task makes its backup: the one place the backups feature plugs in, by binding
 * its own implementation to this token in SchedulesModule.
 */
export abstract class ScheduledBackups {
  /** Starts a backup of the server named `name` ('' = a generated name); throws when it cannot. */
  abstract create(server: LoadedServer, name: string): Promise<void>;
}

/** Until backups exist every backup task fails, with a message that says why. */
@Injectable()
export class BackupsNotAvailable extends ScheduledBackups {
  create(): Promise<void> {
    return Promise.reject(new AppException(ScheduleError.BACKUPS_UNAVAILABLE));
  }
}
