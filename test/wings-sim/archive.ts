// tar.gz and zip handling for compress/decompress, backups and restores.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gzipSync } from 'node:zlib';
import ignore from 'ignore';
import * as tar from 'tar';
import * as yauzl from 'yauzl';
import { FsError, ServerFilesystem } from 'test/wings-sim/files';

type ArchiveKind = 'tar.gz' | 'tar' | 'zip' | 'gz';

/** Thrown for archives Wings would not recognise (ErrCodeUnknownArchive → 400). */
export class UnknownArchiveError extends Error {}

/** Format sniffing by header (archiver.Identify): zip, tar, gzip(tar) or a single gzip file. */
export async function identifyArchive(abs: string): Promise<ArchiveKind> {
  const fh = await fsp.open(abs, 'r');
  const head = Buffer.alloc(512);
  let n: number;
  try {
    n = (await fh.read(head, 0, 512, 0)).bytesRead;
  } finally {
    await fh.close();
  }
  if (n >= 4 && head.readUInt32BE(0) === 0x504b0304) {
    return 'zip';
  }
  if (n >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') {
    return 'tar';
  }
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    return /\.(tar\.gz|tgz)$/i.test(abs) || (await gzipHoldsTar(abs)) ? 'tar.gz' : 'gz';
  }
  throw new UnknownArchiveError('filesystem: unknown archive format');
}

async function gzipHoldsTar(abs: string): Promise<boolean> {
  const chunks: Buffer[] = [];
  let size = 0;
  const gunzip = createReadStream(abs).pipe(createGunzip());
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= 262) {
        break;
      }
    }
  } catch {
    return false;
  } finally {
    gunzip.destroy();
  }
  return Buffer.concat(chunks).subarray(257, 262).toString('latin1') === 'ustar';
}

/** CompressFiles: `archive-<RFC3339 without ':'>.tar.gz` in `root`, entries relative to `root`. */
export async function compressFiles(fs: ServerFilesystem, root: string, files: string[]): Promise<string> {
  const base = await fs.resolve(root);
  const rels: string[] = [];
  for (const f of files) {
    const r = await fs.resolve(path.posix.join(root || '/', f));
    await fsp.lstat(r.abs);
    rels.push(path.relative(base.abs, r.abs) || '.');
  }
  const stamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '');
  const target = path.join(base.abs, `archive-${stamp}.tar.gz`);
  await tar.c({ gzip: true, cwd: base.abs, file: target, portable: true }, rels);
  if (!(await fs.hasSpaceAvailable())) {
    await fsp.rm(target, { force: true });
    throw new FsError('disk', 'filesystem: not enough disk space');
  }
  return target;
}

interface ExtractOptions {
  /** Called per regular file (relative path) before it is written; return false to skip it. */
  onFile?: (rel: string) => boolean;
  /** Decompress skips egg-denylisted entries; a backup restore writes everything (default true). */
  skipDenied?: boolean;
}

/** Extracts an archive of any supported kind into `destAbs` (inside the server root). */
export async function extractArchive(
  fs: ServerFilesystem,
  archiveAbs: string,
  destAbs: string,
  opts: ExtractOptions = {},
): Promise<void> {
  const kind = await identifyArchive(archiveAbs);
  const allow = (rel: string): boolean => {
    if (opts.skipDenied !== false) {
      try {
        fs.assertNotDenied(path.relative(fs.root, path.join(destAbs, rel)));
      } catch {
        // Denylisted entries are skipped, not fatal.
        return false;
      }
    }
    return opts.onFile ? opts.onFile(rel) : true;
  };
  switch (kind) {
    case 'tar.gz':
    case 'tar':
      await fsp.mkdir(destAbs, { recursive: true });
      await tar.x({
        file: archiveAbs,
        cwd: destAbs,
        preserveOwner: false,
        filter: (p, entry) => ('type' in entry && entry.type !== 'File' ? true : allow(p)),
      });
      return;
    case 'gz': {
      const name = path.basename(archiveAbs).replace(/\.gz$/i, '');
      if (allow(name)) {
        await pipeline(createReadStream(archiveAbs), createGunzip(), createWriteStream(path.join(destAbs, name), { mode: 0o644 }));
      }
      return;
    }
    case 'zip':
      await extractZip(fs, archiveAbs, destAbs, allow);
      return;
  }
}

function extractZip(fs: ServerFilesystem, archiveAbs: string, destAbs: string, allow: (rel: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(archiveAbs, { lazyEntries: true }, (err, zip) => {
      if (err) {
        reject(err);
        return;
      }
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const rel = entry.fileName;
        const target = path.join(destAbs, rel);
        if (rel.endsWith('/')) {
          fsp.mkdir(target, { recursive: true, mode: 0o755 }).then(() => zip.readEntry(), reject);
          return;
        }
        if (!allow(rel)) {
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e) {
            reject(e);
            return;
          }
          const inRoot = '/' + path.relative(fs.root, target);
          fs.write(inRoot, stream, entry.uncompressedSize).then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
  });
}

/** A backup archive of the whole server root minus gitignore-style `ignore` lines; sha1 + size. */
export async function createBackupArchive(
  rootAbs: string,
  targetAbs: string,
  ignored: string,
): Promise<{ checksum: string; size: number }> {
  const matcher = ignore().add(ignored.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')));
  await fsp.mkdir(path.dirname(targetAbs), { recursive: true });
  const entries = await fsp.readdir(rootAbs);
  if (entries.length === 0) {
    // tar refuses an empty file list: an empty archive is two zero blocks, gzipped.
    await fsp.writeFile(targetAbs, gzipSync(Buffer.alloc(1024)));
  } else {
    await tar.c(
      {
        gzip: true,
        cwd: rootAbs,
        file: targetAbs,
        portable: true,
        filter: (p, st) => {
          const rel = p.replace(/^\.\//, '').replace(/\/$/, '');
          const isDir = 'isDirectory' in st && st.isDirectory();
          return rel === '' || !matcher.ignores(isDir ? `${rel}/` : rel);
        },
      },
      entries,
    );
  }
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(targetAbs) as AsyncIterable<Buffer>) {
    hash.update(chunk);
  }
  return { checksum: hash.digest('hex'), size: (await fsp.stat(targetAbs)).size };
}
