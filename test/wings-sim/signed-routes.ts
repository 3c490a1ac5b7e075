// Signed-URL endpoints without a Bearer token (wings.md §2.7; W:router/router_download.go, postServerUploadFiles).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import busboy from 'busboy';
import { JwtError, TokenError, parseSignedToken } from 'test/wings-sim/auth';
import { backupPath, BACKUP_NOT_FOUND } from 'test/wings-sim/backups';
import { JsonRecord } from 'test/wings-sim/config';
import { SimContext } from 'test/wings-sim/context';
import { streamFile } from 'test/wings-sim/files-routes';
import { HttpError, RequestContext, RouteTable, internalError } from 'test/wings-sim/http-kit';
import { SimServer } from 'test/wings-sim/sim-server';

const NOT_FOUND = 'The requested resource was not found on this server.';

/** ParseToken failures (signature, exp, decoding) are plain errors in Wings: 500 (§1.12). */
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
  data: Buffer;
  tooLarge: boolean;
}

function readMultipart(c: RequestContext, limitBytes: number): Promise<UploadedPart[]> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: c.req.headers, limits: { fileSize: limitBytes + 1 } });
    } catch {
      reject(new HttpError(400, 'Failed to get multipart form data from request.'));
      return;
    }
    const parts: UploadedPart[] = [];
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      const part: UploadedPart = { name: path.basename(info.filename ?? ''), data: Buffer.alloc(0), tooLarge: false };
      stream.on('data', (d: Buffer) => chunks.push(d));
      stream.on('limit', () => {
        part.tooLarge = true;
      });
      stream.on('end', () => {
        part.data = Buffer.concat(chunks);
        if (field === 'files') {
          parts.push(part);
        }
      });
    });
    bb.on('close', () => resolve(parts));
    bb.on('error', () => reject(new HttpError(400, 'Failed to get multipart form data from request.')));
    c.req.pipe(bb);
  });
}

async function postUpload(c: RequestContext, sim: SimContext): Promise<void> {
  const claims = parseQueryToken(c, sim, ['server_uuid', 'user_uuid', 'unique_id']);
  const s = serverForToken(sim, claims);
  const limitMb = sim.uploadLimitMb();
  const parts = await readMultipart(c, limitMb * 1024 * 1024);
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
    await s.fs.write(p, part.data, part.data.length);
  }
  // gin answers 200 with an empty body when the handler writes nothing.
  c.empty(200);
}

export function registerSignedRoutes(t: RouteTable, sim: SimContext): void {
  t.add('GET', '/download/backup', 'public', (c) => getDownloadBackup(c, sim));
  t.add('GET', '/download/file', 'public', (c) => getDownloadFile(c, sim));
  t.add('POST', '/upload/file', 'public', (c) => postUpload(c, sim));
}
