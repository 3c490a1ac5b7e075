import { Injectable } from '@nestjs/common';
import { BackupsService } from 'src/modules/backups/backups.service';
import type { ServerSnapshot } from 'src/modules/servers/server-context';

/** Where a `backup` task makes its backup: the one place the backups feature plugs into schedules. */
export abstract class ScheduledBackups {
  /** Starts a backup of the server named `name` ('' = a generated name); throws when it cannot. */
  abstract create(server: ServerSnapshot, name: string): Promise<void>;
}

/**
 * A scheduled backup is an ordinary one, except that at the server's limit the oldest unlocked
 * backup makes room (as Pterodactyl rotates scheduled backups); a limit of 0 still refuses.
 */
@Injectable()
export class ScheduledServerBackups extends ScheduledBackups {
  constructor(private readonly backups: BackupsService) {
    super();
  }

  async create(server: ServerSnapshot, name: string): Promise<void> {
    await this.backups.createFromSchedule(server, name === '' ? null : name);
  }
}
