// Signed-URL endpoints without a Bearer token (docs/wings.md#signed-urls).
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { JwtError, TokenError, parseSignedToken } from 'test/wings-sim/auth';
import { backupPath, BACKUP_NOT_FOUND } from 'test/wings-sim/backups';
import { JsonRecord } from 'test/wings-sim/config';
import { SimContext } from 'test/wings-sim/context';
import { streamFile } from 'test/wings-sim/files-routes';
import { HttpError, RequestContext, RouteTable, internalError } from 'test/wings-sim/http-kit';
import { SimServer } from 'test/wings-sim/sim-server';

const NOT_FOUND = 'The requested resource was not found on this server.';

/** ParseToken failures (signature, exp, decoding) are plain errors in Wings: 500. */
function parseQueryToken(c: RequestContext, sim: SimContext, claims: string[]): JsonRecord {
  try {
    return parseSignedToken(c.url.searchParams.get('token') ?? '', sim.token(), claims);
  } catch (err) {
    if (err instanceof JwtError || err instanceof TokenError) {
      sim.log(`signed URL refused: ${err.message}`);
      throw internalError();
    }
    throw err;
  }
}

const str = (claims: JsonRecord, key: string): string => (typeof claims[key] === 'string' ? claims[key] : '');

/** The server must be on this node and the `unique_id` unseen, else 404. */
function serverForToken(sim: SimContext, claims: JsonRecord): SimServer {
  const s = sim.servers.get(str(claims, 'server_uuid'));
  if (!s || !sim.uniqueIds.isUniqueRequest(str(claims, 'unique_id'))) {
    throw new HttpError(404, NOT_FOUND);
  }
  return s;
}

async function getDownloadFile(c: RequestContext, sim: SimContext): Promise<void> {
  const claims = parseQueryToken(c, sim, ['server_uuid', 'file_path', 'unique_id']);
  const s = serverForToken(sim, claims);
  const { abs } = await s.fs.resolve(str(claims, 'file_path'));
  const st = await fsp.stat(abs);
  if (st.isDirectory()) {
    throw new HttpError(404, NOT_FOUND);
  }
  await streamFile(c, abs, {
    'Content-Disposition': `attachment; filename=${JSON.stringify(path.basename(abs))}`,
    'Content-Type': 'application/octet-stream',
  });
}

async function getDownloadBackup(c: RequestContext, sim: SimContext): Promise<void> {
  const claims = parseQueryToken(c, sim, ['server_uuid', 'backup_uuid', 'unique_id']);
  serverForToken(sim, claims);
  const file = backupPath(sim, str(claims, 'backup_uuid'));
  const found = await fsp.stat(file).then(
    (st) => st.isFile(),
    () => false,
  );
  if (!found) {
    throw new HttpError(404, BACKUP_NOT_FOUND);
  }
  await streamFile(c, file, {
    'Content-Disposition': `attachment; filename=${JSON.stringify(path.basename(file))}`,
    'Content-Type': 'application/octet-stream',
  });
}

interface UploadedPart {
  name: string;
  /** Where the part was spooled; Go's multipart reader also keeps large parts in temp files. */
  file: string;
  size: number;
  tooLarge: boolean;
}

/** Parts named `files`, each streamed to a temp file (never held in memory), with its size. */
function readMultipart(c: RequestContext, limitBytes: number, spoolDir: string): Promise<UploadedPart[]> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: c.req.headers, limits: { fileSize: limitBytes + 1 } });
    } catch {
      reject(new HttpError(400, 'Failed to get multipart form data from request.'));
      return;
    }
    const parts: UploadedPart[] = [];
    const writes: Promise<void>[] = [];
    bb.on('file', (field, stream, info) => {
      if (field !== 'files') {
        stream.resume();
        return;
      }
      const part: UploadedPart = { name: path.basename(info.filename ?? ''), file: path.join(spoolDir, randomUUID()), size: 0, tooLarge: false };
      parts.push(part);
      stream.on('data', (d: Buffer) => {
        part.size += d.length;
      });
      stream.on('limit', () => {
        part.tooLarge = true;
      });
      writes.push(pipeline(stream, createWriteStream(part.file)));
    });
    bb.on('close', () => {
      Promise.all(writes).then(() => resolve(parts), reject);
    });
    bb.on('error', () => reject(new HttpError(400, 'Failed to get multipart form data from request.')));
    c.req.pipe(bb);
  });
}

async function postUpload(c: RequestContext, sim: SimContext): Promise<void> {
  const claims = parseQueryToken(c, sim, ['server_uuid', 'user_uuid', 'unique_id']);
  const s = serverForToken(sim, claims);
  const limitMb = sim.uploadLimitMb();
  const spoolDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wings-sim-upload-'));
  try {
    const parts = await readMultipart(c, limitMb * 1024 * 1024, spoolDir);
    if (parts.length === 0) {
      throw new HttpError(400, 'No files were found on the request body.');
    }
    const oversized = parts.find((p) => p.tooLarge);
    if (oversized) {
      throw new HttpError(400, `File ${oversized.name} is larger than the maximum file upload size of ${limitMb} MB.`);
    }
    const directory = c.url.searchParams.get('directory') ?? '';
    for (const part of parts) {
      const p = path.posix.join(directory, part.name);
      s.fs.assertNotDenied(p);
      await s.fs.write(p, createReadStream(part.file), part.size);
    }
  } finally {
    await fsp.rm(spoolDir, { recursive: true, force: true });
  }
  // gin answers 200 with an empty body when the handler writes nothing.
  c.empty(200);
}

export function registerSignedRoutes(t: RouteTable, sim: SimContext): void {
  t.add('GET', '/download/backup', 'public', (c) => getDownloadBackup(c, sim));
  t.add('GET', '/download/file', 'public', (c) => getDownloadFile(c, sim));
  t.add('POST', '/upload/file', 'public', (c) => postUpload(c, sim));
}
