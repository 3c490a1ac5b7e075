import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { JobQueue } from 'src/common/background/job-queue';
import { Clock } from 'src/common/clock';
import { AppConfigService } from 'src/config/app-config.service';
import { AdvisoryLocks, DatabaseLock } from 'src/database/db-lock';
import { BackupsRepository } from 'src/modules/backups/backups.repository';
import { BackupHostsRepository } from 'src/modules/backups/hosts/backup-hosts.repository';
import { S3StorageClient } from 'src/modules/backups/hosts/s3-storage.client';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { errorMessage } from 'src/common/errors/error-message';

/** What one sweep did. */
interface CleanupOutcome {
  /** Uploads aborted, over all hosts. */
  aborted: number;
  /** In-progress backups marked failed because their upload was aborted. */
  failed: number;
  /** Hosts whose bucket could not be listed or cleaned (the next sweep tries again). */
  hostErrors: number;
}

/**
 * Aborts multipart uploads that never completed: every BACKUP_S3_CLEANUP_INTERVAL_MINUTES, on every
 * s3 backup host, uploads under the host's prefix initiated longer than BACKUP_S3_STALE_UPLOAD_HOURS
 * ago are aborted (S3 keeps, and bills, their parts forever otherwise), and the backups they belonged to
 * are marked failed. One process at a time sweeps (an advisory lock).
 */
@Injectable()
export class StaleUploadsCleanup extends IntervalJob {
  static readonly JOB = 'backups.abort-stale-uploads';

  constructor(
    private readonly hosts: BackupHostsRepository,
    private readonly backups: BackupsRepository,
    private readonly s3: S3StorageClient,
    private readonly activityLog: ServerActivityLog,
    registry: SchedulerRegistry,
    queue: JobQueue,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
    private readonly locks: AdvisoryLocks,
  ) {
    super(StaleUploadsCleanup.JOB, 'Stale upload cleanup', config.backups.cleanupIntervalMs, registry, config, { queue });
  }

  protected async run(): Promise<void> {
    const outcome = await this.sweep();
    if (outcome && outcome.aborted > 0) {
      this.logger.log(`Aborted ${outcome.aborted} stale S3 upload(s), ${outcome.failed} backup(s) marked failed`);
    }
  }

  /** One sweep over every s3 host; null when another process is sweeping. */
  async sweep(): Promise<CleanupOutcome | null> {
    const outcome: CleanupOutcome = { aborted: 0, failed: 0, hostErrors: 0 };
    const ran = await this.locks.tryRun(DatabaseLock.BackupUploadCleanup, async () => {
      const staleBefore = this.clock.now().getTime() - this.config.backups.staleUploadMs;
      for (const host of await this.hosts.findS3Hosts()) {
        try {
          const pending = (await this.s3.pendingUploads(host)).filter((u) => u.initiated.getTime() < staleBefore);
          if (pending.length === 0) {
            continue;
          }
          const rows = await this.hosts.uploadsOn(host.id);
          for (const upload of pending) {
            await this.s3.abortUpload(host, upload.key, upload.uploadId);
            outcome.aborted += 1;
            const backup = rows.get(upload.uploadId);
            if (backup && (await this.markFailed(backup.id, backup.serverId, { uuid: backup.uuid, name: backup.name }))) {
              outcome.failed += 1;
            } else if (backup) {
              await this.backups.clearUploadId(backup.id);
            }
          }
        } catch (e) {
          outcome.hostErrors += 1;
          this.logger.warn({ backupHost: host.id, error: errorMessage(e) }, 'could not clean the stale uploads of a backup host');
        }
      }
    });
    return ran ? outcome : null;
  }

  /** An in-progress backup whose upload was aborted has failed; false when it had already finished. */
  private markFailed(id: string, serverId: string, subject: { uuid: string; name: string }): Promise<boolean> {
    const now = this.clock.now();
    return this.backups.transaction(async (manager) => {
      const done = await this.backups.complete(id, { isSuccessful: false, checksum: null, bytes: '0', completedAt: now, isLocked: false, uploadId: null }, manager);
      if (done) {
        await this.activityLog.bySystem(serverId, 'panel', 'server.backup.fail', { ...subject, reason: 'upload abandoned' }, { manager, at: now });
      }
      return done;
    });
  }
}
