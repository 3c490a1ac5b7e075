import { Injectable, Logger } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { AppException } from 'src/common/errors/app.exception';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupsRepository, BackupWithServer } from 'src/modules/backups/backups.repository';
import { BackupStorage, MAX_OBJECT_BYTES } from 'src/modules/backups/hosts/backup-storage';
import type { BackupStatusDto } from 'src/modules/backups/remote/backup-status.dto';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerRecords } from 'src/modules/servers/server-records';
import { errorMessage } from 'src/common/errors/error-message';

/** What Wings gets back from `GET /api/remote/backups/{uuid}?size=`. */
export class PartUrlsDto {
  /** One presigned UploadPart URL a part, in part order. */
  parts!: string[];
  /** Bytes in each part but the last. */
  part_size!: number;
}

/** What Wings reports about backups; only backups of servers on the calling node are found. */
@Injectable()
export class BackupStatusService {
  private readonly logger = new Logger(BackupStatusService.name);

  constructor(
    private readonly repo: BackupsRepository,
    private readonly serverRecords: ServerRecords,
    private readonly activityLog: ServerActivityLog,
    private readonly clock: Clock,
    private readonly storage: BackupStorage,
    private readonly events: PanelEvents,
  ) {}

  /**
   * Starts the S3 multipart upload of an archive of `size` bytes and hands Wings one presigned PUT URL
   * a part (docs/wings.md#backups-remote-side). Asked again, the earlier upload is aborted first.
   */
  async partUrls(node: NodeEntity, uuid: string, size: unknown): Promise<PartUrlsDto> {
    const backup = await this.repo.findByUuid(uuid);
    if (!backup) {
      throw new AppException(BackupError.NOT_FOUND);
    }
    if (backup.server.nodeId !== node.id) {
      throw new AppException(BackupError.OTHER_NODE);
    }
    if (backup.completedAt !== null) {
      throw new AppException(BackupError.COMPLETED);
    }
    const host = await this.storage.hostOf(backup);
    const bytes = typeof size === 'string' && /^\d{1,16}$/.test(size) ? Number(size) : NaN;
    if (!(bytes >= 1 && bytes <= MAX_OBJECT_BYTES)) {
      throw new AppException(BackupError.BAD_SIZE);
    }
    const key = this.storage.key(host, backup.server.uuid, backup);
    if (backup.uploadId) {
      await this.storage.abortUpload(host, key, backup.uploadId);
    }
    const { uploadId, urls, partSize } = await this.storage.startUpload(host, key, bytes);
    if (!(await this.repo.setUploadId(backup.id, uploadId))) {
      // The backup was reported on meanwhile: this upload has nothing to finish.
      await this.storage.abortUpload(host, key, uploadId);
      throw new AppException(BackupError.COMPLETED);
    }
    return { parts: urls, part_size: partSize };
  }

  /**
   * The archive is done (checksum stored as `<type>:<hex>`) or failed (then it is unlocked, as nothing
   * is kept). For S3 the multipart upload is completed with the reported ETags, or aborted; an upload
   * S3 refuses to complete makes the backup failed (and is aborted), and Wings hears 502.
   */
  async complete(node: NodeEntity, uuid: string, report: BackupStatusDto): Promise<void> {
    const backup = await this.require(node, uuid);
    if (backup.completedAt !== null) {
      throw new AppException(BackupError.ALREADY_COMPLETED);
    }
    let storageError: AppException | null = null;
    let successful = report.successful;
    let uploadLeft = backup.uploadId;
    if (backup.disk === 's3') {
      ({ successful, storageError, uploadLeft } = await this.finishUpload(backup, report));
    }
    const now = this.clock.now();
    const result = successful
      ? { isSuccessful: true, checksum: `${report.checksum_type}:${report.checksum!.toLowerCase()}`, bytes: String(report.size), completedAt: now, uploadId: null }
      : { isSuccessful: false, checksum: null, bytes: '0', completedAt: now, isLocked: false, uploadId: uploadLeft };
    await this.repo.transaction(async (manager) => {
      if (!(await this.repo.complete(backup.id, result, manager))) {
        throw new AppException(BackupError.ALREADY_COMPLETED);
      }
      const event = successful ? 'server.backup.complete' : 'server.backup.fail';
      const metadata = {
        uuid: backup.uuid,
        name: backup.name,
        ...(successful ? { checksum: result.checksum, bytes: report.size } : {}),
        ...(storageError ? { error: storageError.message } : {}),
      };
      await this.activityLog.byDaemon(backup.serverId, event, metadata, { manager, at: now });
    });
    await this.events.publish({
      event: successful ? 'backup.completed' : 'backup.failed',
      ...about(backup.server, node),
      data: {
        backupUuid: backup.uuid,
        name: backup.name,
        ...(successful ? { bytes: report.size } : {}),
        ...(storageError ? { error: storageError.message } : {}),
      },
    });
    if (storageError) {
      throw storageError;
    }
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

  /**
   * Completes the upload of a successful report, aborts it otherwise. Returns whether the backup
   * succeeded, why the storage refused, and the upload id still to abort (null once it is gone).
   */
  private async finishUpload(
    backup: BackupWithServer,
    report: BackupStatusDto,
  ): Promise<{ successful: boolean; storageError: AppException | null; uploadLeft: string | null }> {
    const host = await this.storage.hostOf(backup);
    const key = this.storage.key(host, backup.server.uuid, backup);
    const uploadId = backup.uploadId;
    let storageError: AppException | null = null;
    if (report.successful) {
      if (!uploadId || !report.parts?.length) {
        storageError = new AppException(BackupError.NOT_S3, { message: 'An S3 backup reported success without an upload or its parts' });
      } else {
        try {
          const parts = report.parts.map((p) => ({ etag: p.etag, partNumber: p.part_number }));
          await this.storage.completeUpload(host, key, uploadId, parts);
          return { successful: true, storageError: null, uploadLeft: null };
        } catch (e) {
          if (!(e instanceof AppException)) {
            throw e;
          }
          storageError = e;
          this.logger.warn({ backup: backup.uuid, error: e.message }, 'S3 refused to complete the upload; the backup failed');
        }
      }
    }
    if (!uploadId) {
      return { successful: false, storageError, uploadLeft: null };
    }
    try {
      await this.storage.abortUpload(host, key, uploadId);
      return { successful: false, storageError, uploadLeft: null };
    } catch (e) {
      // Kept on the row: the periodic cleanup aborts it later.
      this.logger.warn({ backup: backup.uuid, error: errorMessage(e) }, 'could not abort the upload of a failed backup');
      return { successful: false, storageError, uploadLeft: uploadId };
    }
  }

  private async require(node: NodeEntity, uuid: string): Promise<BackupWithServer> {
    const backup = await this.repo.findByUuidOnNode(uuid, node.id);
    if (!backup) {
      throw new AppException(BackupError.NOT_FOUND);
    }
    return backup;
  }
}
