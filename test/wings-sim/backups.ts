// Backups: create (local and S3 adapters), restore, delete (docs/wings.md#backups).
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { createBackupArchive, extractArchive } from 'test/wings-sim/archive';
import { SimContext } from 'test/wings-sim/context';
import { GENERIC_ERROR, HttpError, RequestContext, RouteTable, internalError, optionalBool, optionalString } from 'test/wings-sim/http-kit';
import { waitForStop } from 'test/wings-sim/power';
import { SimServer } from 'test/wings-sim/sim-server';

const BACKUP_NOT_FOUND = 'The requested backup was not found on this server.';
const UUID_LIKE = /^[0-9a-zA-Z-]+$/;

export function backupPath(sim: SimContext, backupUuid: string): string {
  // LocateLocal only ever looks for `<backup_directory>/<uuid>.tar.gz`.
  return path.join(sim.backupDir, `${UUID_LIKE.test(backupUuid) ? backupUuid : '_invalid_'}.tar.gz`);
}

const exists = (p: string): Promise<boolean> =>
  fsp.stat(p).then(
    (st) => st.isFile(),
    () => false,
  );

/** Reads `.pteroignore` (≤ 32 KiB) when the panel sent no ignore list. */
async function serverwideIgnore(s: SimServer): Promise<string> {
  try {
    const { abs } = await s.fs.resolve('.pteroignore');
    const st = await fsp.lstat(abs);
    return st.isFile() && st.size <= 32 * 1024 ? await fsp.readFile(abs, 'utf8') : '';
  } catch {
    return '';
  }
}

type UploadedPart = { etag: string; part_number: number };

/**
 * S3Backup.generateRemoteRequest: asks the panel for part URLs with the archive's size, PUTs each
 * part in order (Content-Type application/x-gzip, Content-Length; the last part gets the rest) and
 * keeps each answer's ETag. Any refusal fails the backup.
 */
async function uploadToS3(sim: SimContext, uuid: string, archive: string, size: number): Promise<UploadedPart[]> {
  const { parts: urls, partSize } = await sim.panel.getBackupRemoteUploadUrls(uuid, size);
  const parts: UploadedPart[] = [];
  for (const [i, url] of urls.entries()) {
    const failAfter = sim.faults.backupUploadFailsAfterParts;
    if (failAfter !== undefined && i >= failAfter) {
      throw new Error(`simulated failure uploading part ${i + 1}`);
    }
    const start = i * partSize;
    const end = Math.min(size, start + partSize);
    if (start >= end) {
      break;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of createReadStream(archive, { start, end: end - 1 }) as AsyncIterable<Buffer>) {
      chunks.push(chunk);
    }
    const res = await fetch(url, {
      method: 'PUT',
      body: Buffer.concat(chunks),
      headers: { 'content-type': 'application/x-gzip', 'content-length': String(end - start) },
    });
    if (res.status !== 200) {
      throw new Error(`failed to upload part ${i + 1}: ${res.status} ${await res.text()}`);
    }
    await res.body?.cancel();
    parts.push({ etag: res.headers.get('etag') ?? '', part_number: i + 1 });
  }
  return parts;
}

/** Server.Backup: archive (and upload it, for S3), notify the panel (delete the archive if that fails), `backup completed`. */
async function runBackup(sim: SimContext, s: SimServer, uuid: string, ignoreList: string, adapter: 'wings' | 's3'): Promise<void> {
  const target = backupPath(sim, uuid);
  const ignored = ignoreList !== '' ? ignoreList : await serverwideIgnore(s);
  let details: { checksum: string; size: number };
  let parts: UploadedPart[] | null = null;
  try {
    if (sim.faults.backupFails) {
      await fsp.rm(target, { force: true });
      throw new Error('simulated failure while writing the archive');
    }
    details = await createBackupArchive(s.fs.root, target, ignored);
    if (adapter === 's3') {
      // The local copy is only a staging file for the upload.
      try {
        parts = await uploadToS3(sim, uuid, target, details.size);
      } finally {
        await fsp.rm(target, { force: true });
      }
    }
  } catch (err) {
    sim.log(`backup ${uuid} failed: ${err instanceof Error ? err.message : String(err)}`);
    await sim.panel
      .setBackupStatus(uuid, { checksum: '', checksum_type: 'sha1', size: 0, successful: false, parts: null })
      .catch((e: unknown) => sim.log(`failed to notify panel of failed backup: ${String(e)}`));
    s.publish('backup completed', JSON.stringify({ checksum: '', checksum_type: 'sha1', file_size: 0, is_successful: false, uuid }));
    return;
  }
  try {
    await sim.panel.setBackupStatus(uuid, { ...details, checksum_type: 'sha1', successful: true, parts });
  } catch (err) {
    sim.log(`failed to notify panel of backup ${uuid}: ${err instanceof Error ? err.message : String(err)}`);
    await fsp.rm(target, { force: true });
    return;
  }
  // Keys come out sorted: the event bus re-encodes a Go map.
  s.publish(
    'backup completed',
    JSON.stringify({ checksum: details.checksum, checksum_type: 'sha1', file_size: details.size, is_successful: true, uuid }),
  );
}

/** Server.RestoreBackup: suspend, wait for stop, extract with "(restoring): <file>", report to the panel. */
async function runRestore(sim: SimContext, s: SimServer, backupUuid: string, archive: string, label: string): Promise<void> {
  s.config.suspended = true;
  let ok = false;
  try {
    if (s.state !== 'offline') {
      await waitForStop(s, 2 * 60 * 1000);
    }
    await extractArchive(s.fs, archive, s.fs.root, {
      skipDenied: false,
      onFile: (rel) => {
        s.publish('daemon message', `(restoring): ${rel.replace(/^\.\//, '')}`);
        return true;
      },
    });
    ok = true;
  } catch (err) {
    sim.log(`restore of ${backupUuid} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await sim.panel
      .sendRestorationStatus(backupUuid, ok)
      .catch((e: unknown) => sim.log(`failed to notify panel of restoration status: ${String(e)}`));
    s.config.suspended = false;
  }
  s.publish('daemon message', `Completed server restoration from ${label} backup.`);
  s.publish('backup restore completed', '');
  s.restoring = false;
}

async function postBackup(c: RequestContext, sim: SimContext): Promise<void> {
  const body = await c.bindJson();
  const adapter = optionalString(body, 'adapter');
  const uuid = optionalString(body, 'uuid');
  if (adapter !== 'wings' && adapter !== 's3') {
    sim.log(`router/backups: provided adapter is not valid: ${adapter}`);
    throw internalError();
  }
  const s = c.sim;
  c.empty(202);
  runBackup(sim, s, uuid, optionalString(body, 'ignore'), adapter).catch((err: unknown) => sim.log(`backup: ${String(err)}`));
}

async function postRestore(c: RequestContext, sim: SimContext): Promise<void> {
  const s = c.sim;
  const backupUuid = c.params.backup;
  const body = await c.bindJson();
  const adapter = optionalString(body, 'adapter');
  const truncate = optionalBool(body, 'truncate_directory');
  const downloadUrl = optionalString(body, 'download_url');
  if (adapter !== 'wings' && adapter !== 's3') {
    // binding:"required,oneof=wings s3"
    throw new HttpError(400, GENERIC_ERROR, true);
  }
  if (adapter === 's3' && downloadUrl === '') {
    throw new HttpError(400, 'The download_url field is required when the backup adapter is set to S3.');
  }
  s.restoring = true;
  let archive = backupPath(sim, backupUuid);
  try {
    if (truncate) {
      await s.fs.truncateRoot();
    }
    if (adapter === 'wings') {
      if (!(await exists(archive))) {
        throw internalError();
      }
    } else {
      // S3: fetched synchronously; only gzip content types are accepted.
      const res = await fetch(downloadUrl).catch(() => {
        throw internalError();
      });
      const type = res.headers.get('content-type') ?? '';
      if (type === '' || !'application/x-gzip application/gzip'.includes(type)) {
        await res.body?.cancel();
        throw new HttpError(400, `The provided backup link is not a supported content type. "${type}" is not application/x-gzip.`);
      }
      archive = path.join(sim.backupDir, `.restore-${backupUuid}-${Date.now()}.tar.gz`);
      await fsp.mkdir(sim.backupDir, { recursive: true });
      if (res.body) {
        await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), createWriteStream(archive));
      }
    }
  } catch (err) {
    s.restoring = false;
    throw err;
  }
  c.empty(202);
  const label = adapter === 'wings' ? 'local' : 'S3';
  const temp = adapter === 's3' ? archive : null;
  const restore = async (): Promise<void> => {
    try {
      await runRestore(sim, s, backupUuid, archive, label);
    } finally {
      if (temp) {
        await fsp.rm(temp, { force: true });
      }
    }
  };
  restore().catch((err: unknown) => sim.log(`restore: ${String(err)}`));
}

export function registerBackupRoutes(t: RouteTable, sim: SimContext): void {
  t.add('POST', '/api/servers/:server/backup', 'server', (c) => postBackup(c, sim));
  t.add('POST', '/api/servers/:server/backup/:backup/restore', 'server', (c) => postRestore(c, sim));
  t.add('DELETE', '/api/servers/:server/backup/:backup', 'server', async (c) => {
    const p = backupPath(sim, c.params.backup);
    if (!(await exists(p))) {
      throw new HttpError(404, BACKUP_NOT_FOUND);
    }
    await fsp.rm(p, { force: true });
    c.empty(204);
  });
}

export { BACKUP_NOT_FOUND };
