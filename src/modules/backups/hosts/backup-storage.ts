import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import type { BackupEntity } from 'src/modules/backups/backup.entity';
import type { BackupHostEntity } from 'src/modules/backups/backup-host.entity';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupHostsRepository } from 'src/modules/backups/hosts/backup-hosts.repository';
import { S3StorageClient, UploadedPart } from 'src/modules/backups/hosts/s3-storage.client';
import { NodesService } from 'src/modules/nodes/nodes.service';

const MIB = 1024 * 1024;
/** S3's limits: 10,000 parts to an upload, 5 GiB to a part, 5 TiB to an object. */
const MAX_PARTS = 10_000;
const MAX_PART_BYTES = 5 * 1024 * MIB;
export const MAX_OBJECT_BYTES = 5 * 1024 * 1024 * MIB;

/** How an archive of `size` bytes is cut: the host's part size, raised (in whole MiB) when more than 10,000 parts would be needed. */
export const partPlan = (size: number, partSizeMib: number): { partSize: number; count: number } => {
  let partSize = partSizeMib * MIB;
  if (Math.ceil(size / partSize) > MAX_PARTS) {
    partSize = Math.min(MAX_PART_BYTES, Math.ceil(size / MAX_PARTS / MIB) * MIB);
  }
  return { partSize, count: Math.max(1, Math.ceil(size / partSize)) };
};

/** A backup of a server, with the server's uuid (part of the object key). */
type StoredBackup = Pick<BackupEntity, 'uuid' | 'disk' | 'backupHostId' | 'uploadId' | 'name'>;

/**
 * Where a backup's archive lives: the S3 host a node sends its backups to, and each S3 step of a
 * backup's life (upload, download, delete) on the host the archive went to.
 */
@Injectable()
export class BackupStorage {
  constructor(
    private readonly hosts: BackupHostsRepository,
    private readonly nodes: NodesService,
    private readonly s3: S3StorageClient,
    private readonly config: AppConfigService,
  ) {}

  /** The node's S3 host, or null when its backups stay on the node (no host, or a `wings` one). */
  async s3HostOfNode(nodeId: string): Promise<BackupHostEntity | null> {
    const node = await this.nodes.findNode(nodeId);
    const host = node?.backupHostId ? await this.hosts.find(node.backupHostId) : null;
    return host?.adapter === 's3' ? host : null;
  }

  /** The S3 host a backup went to; 400 for a backup kept on its node. */
  async hostOf(backup: StoredBackup): Promise<BackupHostEntity> {
    const host = backup.disk === 's3' && backup.backupHostId ? await this.hosts.find(backup.backupHostId) : null;
    if (!host || host.adapter !== 's3') {
      throw new AppException(BackupError.NOT_S3);
    }
    return host;
  }

  key(host: BackupHostEntity, serverUuid: string, backup: StoredBackup): string {
    return this.s3.objectKey(host, serverUuid, backup.uuid);
  }

  /** Starts the multipart upload and presigns one URL a part. */
  async startUpload(host: BackupHostEntity, key: string, size: number): Promise<{ uploadId: string; urls: string[]; partSize: number }> {
    const { partSize, count } = partPlan(size, host.partSizeMib);
    const uploadId = await this.s3.createUpload(host, key);
    const urls = await this.s3.partUrls(host, key, uploadId, count, this.config.backups.partUrlTtlSeconds);
    return { uploadId, urls, partSize };
  }

  completeUpload(host: BackupHostEntity, key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    return this.s3.completeUpload(host, key, uploadId, parts);
  }

  abortUpload(host: BackupHostEntity, key: string, uploadId: string): Promise<void> {
    return this.s3.abortUpload(host, key, uploadId);
  }

  /** A short-lived GET of the archive, as gzip, named after the backup. */
  async downloadUrl(serverUuid: string, backup: StoredBackup): Promise<string> {
    const host = await this.hostOf(backup);
    return this.s3.downloadUrl(host, this.key(host, serverUuid, backup), `${backup.uuid}.tar.gz`, this.config.backups.downloadUrlTtlSeconds);
  }

  /** Deletes the object and aborts an upload left behind; what is already gone is fine. */
  async remove(serverUuid: string, backup: StoredBackup): Promise<void> {
    const host = await this.hostOf(backup);
    const key = this.key(host, serverUuid, backup);
    if (backup.uploadId) {
      await this.s3.abortUpload(host, key, backup.uploadId);
    }
    await this.s3.deleteObject(host, key);
  }
}
