// `/api/servers/:server/files/*` (docs/wings.md#files).
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { UnknownArchiveError, compressFiles, extractArchive, identifyArchive } from 'test/wings-sim/archive';
import { isRecord } from 'test/wings-sim/config';
import { SimContext } from 'test/wings-sim/context';
import { FsError, errorCode } from 'test/wings-sim/files';
import {
  GENERIC_ERROR,
  HttpError,
  RequestContext,
  RouteTable,
  optionalArray,
  optionalBool,
  optionalString,
  stringArray,
} from 'test/wings-sim/http-kit';
import { SimServer } from 'test/wings-sim/sim-server';

const isNotFound = (err: unknown): boolean => errorCode(err) === 'ENOENT';

function objectList(items: unknown[]): Record<string, unknown>[] {
  return items.map((x) => {
    if (!isRecord(x)) {
      throw new HttpError(400, GENERIC_ERROR, true);
    }
    return x;
  });
}

/** Sends a file with the headers of `GET contents` / signed downloads. */
export async function streamFile(c: RequestContext, abs: string, headers: Record<string, string | number>): Promise<void> {
  const st = await fsp.stat(abs);
  c.res.writeHead(200, { ...headers, 'Content-Length': st.size });
  await new Promise<void>((resolve, reject) => {
    const rs = createReadStream(abs);
    rs.on('error', reject);
    c.res.on('finish', () => resolve());
    c.res.on('close', () => resolve());
    rs.pipe(c.res);
  });
}

async function getContents(c: RequestContext): Promise<void> {
  const s = c.sim;
  const p = (c.url.searchParams.get('file') ?? '').replace(/^\/+/, '');
  const { abs } = await s.fs.resolve(p);
  const lst = await fsp.stat(abs);
  if (lst.isFIFO()) {
    throw new HttpError(400, 'Cannot open files of this type.');
  }
  if (lst.isDirectory()) {
    throw new FsError('isdir', `filesystem: cannot perform action: [${p}] is a directory`);
  }
  const st = await s.fs.stat(abs);
  const headers: Record<string, string | number> = { 'X-Mime-Type': st.mime, 'Content-Type': st.mime };
  if ((c.url.searchParams.get('download') ?? '') !== '') {
    headers['Content-Disposition'] = `attachment; filename=${JSON.stringify(st.name)}`;
    headers['Content-Type'] = 'application/octet-stream';
  }
  await streamFile(c, abs, headers);
}

async function putRename(c: RequestContext): Promise<void> {
  const s = c.sim;
  const body = await c.bindJson();
  const root = optionalString(body, 'root');
  const files = objectList(optionalArray(body, 'files'));
  if (files.length === 0) {
    throw new HttpError(422, 'No files to move or rename were provided.');
  }
  for (const f of files) {
    const from = path.posix.join(root, optionalString(f, 'from'));
    const to = path.posix.join(root, optionalString(f, 'to'));
    s.fs.assertNotDenied(from, to);
    try {
      await s.fs.rename(from, to);
    } catch (err) {
      if (err instanceof FsError && err.code === 'exists') {
        throw new HttpError(400, 'Cannot move or rename file, destination already exists.');
      }
      if (!isNotFound(err)) {
        throw err;
      }
      // A missing source is skipped with a warning in Wings.
    }
  }
  c.empty(204);
}

async function postWrite(c: RequestContext): Promise<void> {
  const s = c.sim;
  const file = '/' + (c.url.searchParams.get('file') ?? '').replace(/^\/+/, '');
  s.fs.assertNotDenied(file);
  const length = c.req.headers['content-length'];
  if (length === undefined && c.req.headers['transfer-encoding'] !== undefined) {
    throw new HttpError(400, 'Missing Content-Length');
  }
  // Buffered: the request log may already have read a JSON-typed body (the panel sends file text that way).
  const data = await c.body();
  try {
    await s.fs.write(file, data, data.length);
  } catch (err) {
    if (err instanceof FsError && err.code === 'isdir') {
      throw new HttpError(400, 'Cannot write file, name conflicts with an existing directory by the same name.');
    }
    throw err;
  }
  c.empty(204);
}

async function postDecompress(c: RequestContext): Promise<void> {
  const s = c.sim;
  const body = await c.bindJson();
  const root = optionalString(body, 'root');
  const file = optionalString(body, 'file');
  const archive = await s.fs.resolve(path.posix.join(root || '/', file));
  const dest = await s.fs.resolve(root);
  try {
    await identifyArchive(archive.abs);
    await extractArchive(s.fs, archive.abs, dest.abs);
  } catch (err) {
    if (err instanceof UnknownArchiveError) {
      throw new HttpError(400, 'The archive provided is in a format Wings does not understand.');
    }
    throw err;
  }
  c.empty(204);
}

async function postChmod(c: RequestContext): Promise<void> {
  const s = c.sim;
  const body = await c.bindJson();
  const root = optionalString(body, 'root');
  const files = objectList(optionalArray(body, 'files'));
  if (files.length === 0) {
    throw new HttpError(422, 'No files to chmod were provided.');
  }
  for (const f of files) {
    const mode = optionalString(f, 'mode');
    if (!/^[0-7]+$/.test(mode) || Number.parseInt(mode, 8) > 0xffffffff) {
      throw new HttpError(400, 'Invalid file mode.');
    }
    await s.fs.chmod(path.posix.join(root, optionalString(f, 'file')), Number.parseInt(mode, 8)).catch((err: unknown) => {
      if (!isNotFound(err)) {
        throw err;
      }
    });
  }
  c.empty(204);
}

/** The downloader: GET the URL (status 200 and a Content-Length required), write to root/name. */
async function download(s: SimServer, url: URL, root: string, fileName: string, useHeader: boolean, id: string): Promise<string> {
  const entry = { progress: 0, abort: new AbortController() };
  s.downloads.set(id, entry);
  try {
    const res = await fetch(url, {
      headers: { 'User-Agent': 'Pterodactyl Panel (https://pterodactyl.io)' },
      redirect: 'manual',
      signal: entry.abort.signal,
    });
    if (res.status !== 200) {
      throw new Error(`downloader: got bad response status from endpoint: ${res.status} ${res.statusText}`);
    }
    const length = Number(res.headers.get('content-length') ?? 0);
    if (!(length >= 1) || !res.body) {
      throw new Error('downloader: request is missing ContentLength');
    }
    let name = '';
    const disposition = res.headers.get('content-disposition');
    if (useHeader && disposition) {
      name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? '';
    }
    name ||= fileName || url.pathname.split('/').pop() || '';
    const target = path.posix.join(root, name);
    let received = 0;
    // A pass-through counter buffers until the write pipeline attaches, so no chunk is lost.
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb): void {
        received += chunk.length;
        entry.progress = received / length;
        cb(null, chunk);
      },
    });
    Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(counter);
    await s.fs.write(target, counter, length);
    return target;
  } finally {
    s.downloads.delete(id);
  }
}

async function postPull(c: RequestContext, sim: SimContext): Promise<void> {
  const s = c.sim;
  const body = await c.bindJson();
  const rawUrl = optionalString(body, 'url');
  let root = optionalString(body, 'root');
  const directory = optionalString(body, 'directory');
  if (rawUrl === '' || (root === '' && directory === '')) {
    // gin `binding:"required"` / `required_without` failures.
    throw new HttpError(400, GENERIC_ERROR, true);
  }
  root ||= directory;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch (err) {
    throw new HttpError(400, `An error occurred while parsing that URL: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!(await s.fs.hasSpaceAvailable())) {
    throw new FsError('disk', 'filesystem: not enough disk space');
  }
  if (s.downloads.size >= 3) {
    throw new HttpError(
      400,
      'This server has reached its limit of 3 simultaneous remote file downloads at once. Please wait for one to complete before trying again.',
    );
  }
  const id = randomUUID();
  const job = download(s, url, root, optionalString(body, 'file_name'), optionalBool(body, 'use_header'), id);
  if (!optionalBool(body, 'foreground')) {
    job.catch((err: unknown) => sim.log(`pull ${id} failed: ${err instanceof Error ? err.message : String(err)}`));
    c.json(202, { identifier: id });
    return;
  }
  const target = await job;
  c.json(200, await s.fs.stat((await s.fs.resolve(target)).abs));
}

export function registerFileRoutes(t: RouteTable, sim: SimContext): void {
  const base = '/api/servers/:server/files';
  t.add('GET', `${base}/contents`, 'server', getContents);
  t.add('GET', `${base}/list-directory`, 'server', async (c) => {
    c.json(200, await c.sim.fs.list(c.url.searchParams.get('directory') ?? ''));
  });
  t.add('PUT', `${base}/rename`, 'server', putRename);
  t.add('POST', `${base}/copy`, 'server', async (c) => {
    const location = optionalString(await c.bindJson(), 'location');
    c.sim.fs.assertNotDenied(location);
    await c.sim.fs.copy(location);
    c.empty(204);
  });
  t.add('POST', `${base}/write`, 'server', postWrite);
  t.add('POST', `${base}/create-directory`, 'server', async (c) => {
    const body = await c.bindJson();
    try {
      await c.sim.fs.createDirectory(optionalString(body, 'name'), optionalString(body, 'path'));
    } catch (err) {
      if (err instanceof FsError && err.code === 'notdir') {
        throw new HttpError(400, 'Part of the path being created is not a directory (ENOTDIR).');
      }
      throw err;
    }
    c.empty(204);
  });
  t.add('POST', `${base}/delete`, 'server', async (c) => {
    const body = await c.bindJson();
    const root = optionalString(body, 'root');
    const files = stringArray(body, 'files');
    if (files.length === 0) {
      throw new HttpError(422, 'No files were specified for deletion.');
    }
    for (const f of files) {
      await c.sim.fs.delete(path.posix.join(root, f));
    }
    c.empty(204);
  });
  t.add('POST', `${base}/compress`, 'server', async (c) => {
    const body = await c.bindJson();
    const files = stringArray(body, 'files');
    if (files.length === 0) {
      throw new HttpError(422, 'No files were passed through to be compressed.');
    }
    if (!(await c.sim.fs.hasSpaceAvailable())) {
      throw new HttpError(409, 'This server does not have enough available disk space to generate a compressed archive.');
    }
    const archive = await compressFiles(c.sim.fs, optionalString(body, 'root'), files);
    c.json(200, { ...(await c.sim.fs.stat(archive)), mime: 'application/tar+gzip' });
  });
  t.add('POST', `${base}/decompress`, 'server', postDecompress);
  t.add('POST', `${base}/chmod`, 'server', postChmod);
  t.add('GET', `${base}/pull`, 'server', (c) => {
    const list = [...c.sim.downloads.entries()].map(([id, d]) => ({ Identifier: id, Progress: d.progress }));
    c.json(200, { downloads: list.length > 0 ? list : null });
  });
  t.add('POST', `${base}/pull`, 'server', (c) => postPull(c, sim));
  t.add('DELETE', `${base}/pull/:download`, 'server', (c) => {
    c.sim.downloads.get(c.params.download)?.abort.abort();
    c.empty(204);
  });
}
