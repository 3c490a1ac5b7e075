import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupsRepository, BackupWithServer } from 'src/modules/backups/backups.repository';
import type { BackupStatusDto } from 'src/modules/backups/remote/backup-status.dto';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerRecords } from 'src/modules/servers/server-records';

/** What Wings reports about backups; only backups of servers on the calling node are found. */
@Injectable()
export class BackupStatusService {
  constructor(
    private readonly repo: BackupsRepository,
    private readonly serverRecords: ServerRecords,
    private readonly activityLog: ServerActivityLog,
    private readonly clock: Clock,
  ) {}

  /** The archive is done (checksum stored as `<type>:<hex>`) or failed (then it is unlocked, as nothing is kept). */
  async complete(node: NodeEntity, uuid: string, report: BackupStatusDto): Promise<void> {
    const backup = await this.require(node, uuid);
    if (backup.completedAt !== null) {
      throw new AppException(BackupError.ALREADY_COMPLETED);
    }
    const now = this.clock.now();
    const result = report.successful
      ? { isSuccessful: true, checksum: `${report.checksum_type}:${report.checksum!.toLowerCase()}`, bytes: String(report.size), completedAt: now }
      : { isSuccessful: false, checksum: null, bytes: '0', completedAt: now, isLocked: false };
    await this.repo.transaction(async (manager) => {
      if (!(await this.repo.complete(backup.id, result, manager))) {
        throw new AppException(BackupError.ALREADY_COMPLETED);
      }
      const event = report.successful ? 'server.backup.complete' : 'server.backup.fail';
      const metadata = { uuid: backup.uuid, name: backup.name, ...(report.successful ? { checksum: result.checksum, bytes: report.size } : {}) };
      await this.activityLog.byDaemon(backup.serverId, event, metadata, { manager, at: now });
    });
  }

  /** The restore is over either way: the server leaves `restoring_backup`. */
  async restored(node: NodeEntity, uuid: string, successful: boolean): Promise<void> {
    const backup = await this.require(node, uuid);
    const now = this.clock.now();
    await this.repo.transaction(async (manager) => {
      await this.serverRecords.endRestoring(backup.serverId, null, manager);
      const event = successful ? 'server.backup.restore-complete' : 'server.backup.restore-failed';
      await this.activityLog.byDaemon(backup.serverId, event, { uuid: backup.uuid, name: backup.name }, { manager, at: now });
    });
  }

  private async require(node: NodeEntity, uuid: string): Promise<BackupWithServer> {
    const backup = await this.repo.findByUuidOnNode(uuid, node.id);
    if (!backup) {
      throw new AppException(BackupError.NOT_FOUND);
    }
    return backup;
  }
}
