import { Injectable } from '@nestjs/common';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { BackupHostEntity, backupHostSecretContext } from 'src/modules/backups/backup-host.entity';
import { BackupError } from 'src/modules/backups/backups.errors';
import { errorMessage } from 'src/common/errors/error-message';

/** A multipart upload the bucket still holds (never completed nor aborted). */
interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: Date;
}

export interface UploadedPart {
  etag: string;
  partNumber: number;
}

const DEFAULT_REGION = 'us-east-1';
const CONNECT_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;
const GZIP = 'application/x-gzip';

/** The bucket's own words for a failure (`NoSuchBucket: The specified bucket does not exist`); never the credentials. */
const s3ErrorText = (e: unknown): string => {
  if (e instanceof S3ServiceException) {
    const status = e.$metadata.httpStatusCode;
    const message = e.message && e.message !== 'UnknownError' ? e.message : `HTTP ${status ?? '?'}`;
    return `${e.name}: ${message}`;
  }
  return errorMessage(e);
};

const isNoSuchUpload = (e: unknown): boolean => e instanceof S3ServiceException && (e.name === 'NoSuchUpload' || e.$metadata.httpStatusCode === 404);

/**
 * Every call the panel makes to an S3 backup host (docs/backup-hosts.md), with the AWS SDK. Checksums
 * are computed only where S3 requires them: otherwise presigned part URLs would carry the CRC32 of an
 * empty body, which S3 refuses (BadDigest) once Wings PUTs the real part.
 */
@Injectable()
export class S3StorageClient {
  constructor(private readonly secrets: SecretBox) {}

  /** `<prefix><server uuid>/<backup uuid>.tar.gz`, Pterodactyl's layout, so imported backups are found. */
  objectKey(host: BackupHostEntity, serverUuid: string, backupUuid: string): string {
    return `${host.keyPrefix}${serverUuid}/${backupUuid}.tar.gz`;
  }

  async createUpload(host: BackupHostEntity, key: string): Promise<string> {
    const out = await this.call(host, (s3) => s3.send(new CreateMultipartUploadCommand({ Bucket: host.bucket!, Key: key, ContentType: GZIP })));
    if (!out.UploadId) {
      throw new AppException(BackupError.STORAGE_FAILED, { message: 'The backup storage started no multipart upload' });
    }
    return out.UploadId;
  }

  /** Presigned UploadPart URLs for parts 1..count, each valid for `expiresIn` seconds. */
  partUrls(host: BackupHostEntity, key: string, uploadId: string, count: number, expiresIn: number): Promise<string[]> {
    return this.call(host, (s3) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          getSignedUrl(s3, new UploadPartCommand({ Bucket: host.bucket!, Key: key, UploadId: uploadId, PartNumber: i + 1 }), { expiresIn }),
        ),
      ),
    );
  }

  async completeUpload(host: BackupHostEntity, key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    await this.call(host, (s3) =>
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: host.bucket!,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: sorted.map((p) => ({ ETag: p.etag, PartNumber: p.partNumber })) },
        }),
      ),
    );
  }

  /** An upload that is already gone counts as aborted. */
  async abortUpload(host: BackupHostEntity, key: string, uploadId: string): Promise<void> {
    await this.call(host, async (s3) => {
      try {
        await s3.send(new AbortMultipartUploadCommand({ Bucket: host.bucket!, Key: key, UploadId: uploadId }));
      } catch (e) {
        if (!isNoSuchUpload(e)) {
          throw e;
        }
      }
    });
  }

  /** Every unfinished multipart upload under the host's prefix, page by page. */
  async pendingUploads(host: BackupHostEntity): Promise<PendingUpload[]> {
    return this.call(host, async (s3) => {
      const found: PendingUpload[] = [];
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        const page = await s3.send(
          new ListMultipartUploadsCommand({
            Bucket: host.bucket!,
            Prefix: host.keyPrefix || undefined,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const u of page.Uploads ?? []) {
          if (u.Key && u.UploadId && u.Initiated) {
            found.push({ key: u.Key, uploadId: u.UploadId, initiated: u.Initiated });
          }
        }
        if (!page.IsTruncated) {
          return found;
        }
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    });
  }

  /** A GET URL answering the archive as gzip, under `filename`. */
  downloadUrl(host: BackupHostEntity, key: string, filename: string, expiresIn: number): Promise<string> {
    return this.call(host, (s3) =>
      getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: host.bucket!,
          Key: key,
          ResponseContentType: GZIP,
          ResponseContentDisposition: `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`,
        }),
        { expiresIn },
      ),
    );
  }

  /** A missing object is fine: S3 answers DeleteObject the same either way. */
  async deleteObject(host: BackupHostEntity, key: string): Promise<void> {
    await this.call(host, (s3) => s3.send(new DeleteObjectCommand({ Bucket: host.bucket!, Key: key })));
  }

  /** Writes and deletes a tiny object: proves the endpoint, bucket, credentials and the right to write. */
  async probe(host: BackupHostEntity): Promise<void> {
    const key = `${host.keyPrefix}.hatchery-connection-test`;
    await this.call(host, async (s3) => {
      await s3.send(new PutObjectCommand({ Bucket: host.bucket!, Key: key, Body: 'ok', ContentType: 'text/plain' }));
      await s3.send(new DeleteObjectCommand({ Bucket: host.bucket!, Key: key }));
    });
  }

  /** Runs `fn` with a client for the host; S3 failures become 502 BACKUP_STORAGE_FAILED with S3's message. */
  private async call<T>(host: BackupHostEntity, fn: (s3: S3Client) => Promise<T>): Promise<T> {
    const s3 = this.clientFor(host);
    try {
      return await fn(s3);
    } catch (e) {
      if (e instanceof AppException) {
        throw e;
      }
      const storageError = s3ErrorText(e);
      throw new AppException(BackupError.STORAGE_FAILED, { message: `The backup storage refused the request: ${storageError}`, details: { storageError } });
    } finally {
      s3.destroy();
    }
  }

  private clientFor(host: BackupHostEntity): S3Client {
    if (host.adapter !== 's3' || !host.bucket || !host.accessKeyId || !host.secretAccessKey) {
      throw new AppException(BackupError.NOT_S3);
    }
    return new S3Client({
      region: host.region || DEFAULT_REGION,
      endpoint: host.endpoint ?? undefined,
      forcePathStyle: host.pathStyle,
      credentials: { accessKeyId: host.accessKeyId, secretAccessKey: this.secrets.open(host.secretAccessKey, backupHostSecretContext(host)) },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    });
  }
}
