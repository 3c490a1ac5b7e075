// A server's data directory, with Wings' path and naming rules (docs/wings.md#files).
import { createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ignore, { Ignore } from 'ignore';

type FsErrorCode = 'denylist' | 'isdir' | 'disk' | 'badpath' | 'notdir' | 'exists';

/** A filesystem failure Wings classifies. */
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The Stat JSON of list-directory, compress and foreground pull. */
interface StatJson {
  name: string;
  created: string;
  modified: string;
  mode: string;
  mode_bits: string;
  size: number;
  directory: boolean;
  file: boolean;
  symlink: boolean;
  mime: string;
}

/** RFC3339 without fractional seconds, in UTC (Go's time.RFC3339). */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's os.FileMode.String() for the types the simulator can meet. */
function goModeString(st: { isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO(): boolean; mode: number }): string {
  const type = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'L' : st.isFIFO() ? 'p' : '-';
  const rwx = 'rwxrwxrwx';
  let perms = '';
  for (let i = 0; i < 9; i++) {
    perms += st.mode & (1 << (8 - i)) ? rwx[i] : '-';
  }
  return type + perms;
}

/** A small stand-in for gabriel-vasile/mimetype: magic numbers, then JSON/text, else binary. */
function sniffMime(head: Buffer): string {
  const starts = (...bytes: number[]): boolean => bytes.every((b, i) => head[i] === b);
  if (starts(0x1f, 0x8b)) {
    return 'application/gzip';
  }
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    return 'application/zip';
  }
  if (starts(0x89, 0x50, 0x4e, 0x47)) {
    return 'image/png';
  }
  if (starts(0xff, 0xd8, 0xff)) {
    return 'image/jpeg';
  }
  if (head.length > 262 && head.subarray(257, 262).toString('latin1') === 'ustar') {
    return 'application/x-tar';
  }
  if (head.includes(0)) {
    return 'application/octet-stream';
  }
  const text = head.toString('utf8');
  if (/^\s*[{[]/.test(text)) {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      // Not complete JSON (or cut at the sniff limit): plain text.
    }
  }
  return 'text/plain; charset=utf-8';
}

async function readHead(abs: string, bytes = 3072): Promise<Buffer> {
  const fh = await fsp.open(abs, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The errno code of a Node error; realm-safe (Jest runs code in a VM where `instanceof Error` fails for fs errors). */
export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

function escapes(rel: string): boolean {
  return rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel);
}

/** Go's filepath.Ext: from the last dot of the last element, even a leading one. */
function goExt(base: string): string {
  const i = base.lastIndexOf('.');
  return i >= 0 ? base.slice(i) : '';
}

export class ServerFilesystem {
  private denylist: Ignore = ignore();

  constructor(
    readonly root: string,
    private diskLimitMb: () => number,
  ) {}

  setDenylist(patterns: string[]): void {
    this.denylist = ignore().add(patterns.filter((p) => p.trim() !== ''));
  }

  /** IsIgnored: egg file_denylist (gitignore syntax) → 403. */
  assertNotDenied(...paths: string[]): void {
    for (const p of paths) {
      const rel = path.posix.normalize('/' + p).replace(/^\/+/, '');
      if (rel !== '' && !escapes(rel) && this.denylist.ignores(rel)) {
        throw new FsError('denylist', `filesystem: file access prohibited: [${p}] is on the denylist`);
      }
    }
  }

  /**
   * ufs unsafePath + openat2(RESOLVE_BENEATH): join with the root, clean, refuse anything outside,
   * including a symlink that leads out. Returns the absolute path and the root-relative one ('.' = root).
   */
  async resolve(p: string): Promise<{ abs: string; rel: string }> {
    // filepath.Join concatenates, so a leading '/' stays inside the root but '..' can climb out of it.
    if (p.includes('\0')) {
      throw new FsError('badpath', 'bad path resolution: NUL byte');
    }
    const joined = path.join(this.root, p);
    const rel = path.relative(this.root, joined);
    if (escapes(rel)) {
      throw new FsError('badpath', `bad path resolution: ${p}`);
    }
    // Follow symlinks of the longest existing prefix: it must stay inside the (real) root.
    const realRoot = await fsp.realpath(this.root);
    let probe = joined;
    for (;;) {
      try {
        const real = await fsp.realpath(probe);
        if (escapes(path.relative(realRoot, real))) {
          throw new FsError('badpath', `bad path resolution: ${p}`);
        }
        break;
      } catch (err) {
        if (err instanceof FsError || probe === this.root) {
          throw err;
        }
        probe = path.dirname(probe);
      }
    }
    return { abs: joined, rel: rel === '' ? '.' : rel };
  }

  async stat(abs: string, lstat = false): Promise<StatJson> {
    const st = lstat ? await fsp.lstat(abs) : await fsp.stat(abs);
    let mime = st.isDirectory() ? 'inode/directory' : 'application/octet-stream';
    if (st.isFile()) {
      mime = sniffMime(await readHead(abs));
    }
    return {
      name: path.basename(abs),
      created: rfc3339(st.ctime),
      modified: rfc3339(st.mtime),
      mode: goModeString(st),
      mode_bits: (st.mode & 0o777).toString(8),
      size: st.size,
      directory: st.isDirectory(),
      file: !st.isDirectory(),
      // Always false in this Wings snapshot: the symlink bit is masked out before the test.
      symlink: false,
      mime,
    };
  }

  /** Name-sorted, then files before directories (Wings' comparator; clients re-sort anyway). */
  async list(dir: string): Promise<StatJson[]> {
    const { abs } = await this.resolve(dir);
    const names = await fsp.readdir(abs);
    const out = await Promise.all(names.map((n) => this.stat(path.join(abs, n), true)));
    out.sort((a, b) => (a.name === b.name ? 0 : a.name > b.name ? 1 : -1));
    return [...out.filter((s) => !s.directory), ...out.filter((s) => s.directory)];
  }

  async diskUsage(): Promise<number> {
    const walk = async (dir: string): Promise<number> => {
      let total = 0;
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          total += await walk(p);
        } else {
          total += (await fsp.lstat(p).catch(() => ({ size: 0 }))).size;
        }
      }
      return total;
    };
    return walk(this.root);
  }

  /** HasSpaceFor: a disk limit (MB, 0 = unlimited) is 1024² bytes per MB. */
  async assertSpaceFor(bytes: number): Promise<void> {
    const limit = this.diskLimitMb();
    if (limit <= 0 || bytes <= 0) {
      return;
    }
    if ((await this.diskUsage()) + bytes > limit * 1024 * 1024) {
      throw new FsError('disk', 'filesystem: not enough disk space');
    }
  }

  async hasSpaceAvailable(): Promise<boolean> {
    const limit = this.diskLimitMb();
    return limit <= 0 || (await this.diskUsage()) < limit * 1024 * 1024;
  }

  /** Write: parents created, mode 0644; a directory at the path is ErrCodeIsDirectory. */
  async write(p: string, data: Readable | Buffer, size: number, mode = 0o644): Promise<void> {
    const { abs } = await this.resolve(p);
    let current = 0;
    try {
      const st = await fsp.stat(abs);
      if (st.isDirectory()) {
        throw new FsError('isdir', `filesystem: cannot perform action: [${p}] is a directory`);
      }
      current = st.size;
    } catch (err) {
      if (err instanceof FsError) {
        throw err;
      }
    }
    await this.assertSpaceFor(size - current);
    await fsp.mkdir(path.dirname(abs), { recursive: true, mode: 0o755 });
    const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
    await pipeline(source, createWriteStream(abs, { mode }));
    await fsp.chmod(abs, mode);
  }

  /** Copy: `name copy.ext`, `name copy 1.ext` … `name copy 50.ext`, then `namecopy.<RFC3339>.ext`. */
  async copy(p: string): Promise<string> {
    const { abs } = await this.resolve(p);
    const st = await fsp.stat(abs);
    if (!st.isFile()) {
      throw Object.assign(new Error('file does not exist'), { code: 'ENOENT' });
    }
    await this.assertSpaceFor(st.size);
    const base = path.basename(abs);
    let extension = goExt(base);
    let name = base.slice(0, base.length - extension.length);
    if (name.endsWith('.tar')) {
      extension = '.tar' + extension;
      name = name.slice(0, -4);
    }
    const dir = path.dirname(abs);
    let suffix = ' copy';
    for (let i = 0; i < 51; i++) {
      if (i > 0) {
        suffix = ` copy ${i}`;
      }
      const exists = await fsp.lstat(path.join(dir, name + suffix + extension)).then(
        () => true,
        () => false,
      );
      if (!exists) {
        break;
      }
      if (i === 50) {
        suffix = 'copy.' + rfc3339(new Date());
      }
    }
    const target = path.join(dir, name + suffix + extension);
    await fsp.copyFile(abs, target);
    await fsp.chmod(target, st.mode & 0o777);
    return path.basename(target);
  }

  /** Rename: missing parents of the target are created; an existing target is ErrExist. */
  async rename(from: string, to: string): Promise<void> {
    if (from === to) {
      return;
    }
    const src = await this.resolve(from);
    const dst = await this.resolve(to);
    if (src.rel === '.' || dst.rel === '.') {
      throw new FsError('badpath', 'rename: bad path resolution');
    }
    await fsp.lstat(src.abs);
    await fsp.mkdir(path.dirname(dst.abs), { recursive: true, mode: 0o755 });
    const exists = await fsp.lstat(dst.abs).then(
      () => true,
      () => false,
    );
    if (exists) {
      throw new FsError('exists', 'rename: file already exists');
    }
    await fsp.rename(src.abs, dst.abs);
  }

  /** RemoveAll: recursive, a missing path is fine, the root itself is a bad path. */
  async delete(p: string): Promise<void> {
    const { abs, rel } = await this.resolve(p);
    if (rel === '.') {
      throw new FsError('badpath', 'removeall: bad path resolution');
    }
    await fsp.rm(abs, { recursive: true, force: true });
  }

  async createDirectory(name: string, parent: string): Promise<void> {
    const { abs } = await this.resolve(path.posix.join(parent || '/', name));
    try {
      await fsp.mkdir(abs, { recursive: true, mode: 0o755 });
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOTDIR' || code === 'EEXIST') {
        throw new FsError('notdir', 'not a directory');
      }
      throw err;
    }
  }

  async chmod(p: string, mode: number): Promise<void> {
    const { abs } = await this.resolve(p);
    await fsp.chmod(abs, mode & 0o777);
  }

  /** Deletes everything inside the root (restore with truncate_directory). */
  async truncateRoot(): Promise<void> {
    for (const name of await fsp.readdir(this.root)) {
      await fsp.rm(path.join(this.root, name), { recursive: true, force: true });
    }
  }
}
