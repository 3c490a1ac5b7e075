import { Transform } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { headerOf, HttpRequest } from 'src/common/http/http';
import { assertPublicUrl, OutboundPolicy } from 'src/common/http/outbound-url';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';
import { DaemonFileStat, DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import { DaemonError } from 'src/modules/daemon-gateway/daemon.errors';
import { DirectoryListingDto, FileEntryDto, PullStartedDto, SignedUrlDto, toFileEntry } from 'src/modules/files/dto/file-response.dto';
import type { ChmodItemDto, RenameItemDto } from 'src/modules/files/dto/files.dto';
import { FilesError } from 'src/modules/files/files.errors';
import { baseName, childPath, normalizeServerPath, parentOf } from 'src/modules/files/server-path';
import type { ServerAccess } from 'src/modules/servers/server-access';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import { ServerActivityLog } from 'src/modules/servers/server-activity';

const COPY_LIMIT = 1000;

/** `a.jar` → [`a`, `.jar`]; `.tar.gz` counts as one extension, and a dotfile has none. */
const splitExtension = (name: string): [string, string] => {
  if (/.\.tar\.gz$/i.test(name)) {
    return [name.slice(0, -7), name.slice(-7)];
  }
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
};

/** Copy naming (docs/api.md#files): `a_copy.jar`, then `a_copy_2.jar`, `a_copy_3.jar`... */
const copyName = (name: string, taken: ReadonlySet<string>): string => {
  const [base, ext] = splitExtension(name);
  for (let n = 1; n <= COPY_LIMIT; n++) {
    const candidate = `${base}_copy${n === 1 ? '' : `_${n}`}${ext}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
  throw new AppException(FilesError.COPY_FAILED, { message: `${name} has too many copies already` });
};

const isDaemon500 = (e: unknown): boolean => e instanceof AppException && e.code === 'DAEMON_HTTP_ERROR' && e.status === 500;

/**
 * The file manager (docs/api.md#files): every path is normalised and checked here
 * before the daemon is called; every change leaves a `server.file.*` activity entry.
 */
/** Room for multipart boundaries and part headers on top of the node's upload size. */
const UPLOAD_OVERHEAD_BYTES = 64 * 1024;

@Injectable()
export class FilesService {
  constructor(
    private readonly activityLog: ServerActivityLog,
    private readonly daemon: DaemonGateway,
    private readonly signer: DaemonTokenSigner,
    private readonly config: AppConfigService,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
  ) {}

  async list(access: ServerAccess, rawDirectory: string | undefined): Promise<DirectoryListingDto> {
    const directory = normalizeServerPath(rawDirectory);
    const stats = await this.mapMissing(access.server, directory, () => this.daemon.listDirectory(access.server.node, access.server.uuid, directory));
    return { directory, entries: (stats ?? []).map((s) => toFileEntry(directory, s)) };
  }

  /** The file as text, up to FILE_EDIT_MAX_MB; a larger file is refused (download it instead). */
  async contents(access: ServerAccess, rawFile: string): Promise<string> {
    const file = this.filePath(rawFile);
    const limit = this.config.files.editMaxBytes;
    try {
      return await this.mapMissing(access.server, file, () => this.daemon.fileContents(access.server.node, access.server.uuid, file, limit));
    } catch (e) {
      if (e instanceof AppException && e.code === DaemonError.RESPONSE_TOO_LARGE.code) {
        throw new AppException(FilesError.TOO_LARGE_TO_VIEW, {
          message: `The file is larger than ${limit / 1024 / 1024} MiB, the most the file manager opens; download it instead`,
          details: { file, limitBytes: limit },
        });
      }
      throw e;
    }
  }

  async write(access: ServerAccess, rawFile: string, content: string, actor: Actor): Promise<void> {
    const file = this.filePath(rawFile);
    await this.daemon.writeFile(access.server.node, access.server.uuid, file, content);
    await this.activity(access.server, actor, 'server.file.write', { file });
  }

  /** Wings names copies `a copy.jar`; the panel picks its own name and renames Wings' copy to it. */
  async copy(access: ServerAccess, rawLocation: string, actor: Actor): Promise<FileEntryDto> {
    const { node, uuid } = access.server;
    const location = this.filePath(rawLocation);
    const directory = parentOf(location);
    const name = baseName(location);
    const before = (await this.mapMissing(access.server, location, () => this.daemon.listDirectory(node, uuid, directory))) ?? [];
    const source = before.find((s) => s.name === name);
    if (!source) {
      throw this.notFound(location);
    }
    if (source.directory) {
      throw new AppException(FilesError.NOT_A_FILE);
    }
    const target = copyName(name, new Set(before.map((s) => s.name)));
    await this.daemon.copyFile(node, uuid, location);
    const after = (await this.daemon.listDirectory(node, uuid, directory)) ?? [];
    const known = new Set(before.map((s) => s.name));
    const created = after.filter((s) => !known.has(s.name));
    // Wings' own naming (`a copy.jar`, `a copy 1.jar`...); if something else appeared meanwhile, prefer that pattern.
    const [base] = splitExtension(name);
    const made = created.find((s) => s.name.startsWith(`${base} copy`)) ?? (created.length === 1 ? created[0] : undefined);
    if (!made) {
      throw new AppException(FilesError.COPY_FAILED, { details: { location } });
    }
    let entry: DaemonFileStat = made;
    if (made.name !== target) {
      await this.daemon.renameFiles(node, uuid, directory, [{ from: made.name, to: target }]);
      entry = { ...made, name: target };
    }
    const copyPath = childPath(directory, target).path;
    await this.activity(access.server, actor, 'server.file.copy', { file: location, copy: copyPath });
    return toFileEntry(directory, entry);
  }

  /** Rename and move: each `from`/`to` is taken relative to `root` and may go anywhere inside the server. */
  async rename(access: ServerAccess, rawRoot: string | undefined, items: RenameItemDto[], actor: Actor): Promise<void> {
    const root = normalizeServerPath(rawRoot);
    const files = items.map((f) => ({ from: this.filePath(`${root}/${f.from}`), to: this.filePath(`${root}/${f.to}`) }));
    await this.daemon.renameFiles(access.server.node, access.server.uuid, '/', files);
    await this.activity(access.server, actor, 'server.file.rename', { directory: root, files });
  }

  async delete(access: ServerAccess, rawRoot: string | undefined, names: string[], actor: Actor): Promise<void> {
    const root = normalizeServerPath(rawRoot);
    const files = names.map((n) => childPath(root, n));
    await this.daemon.deleteFiles(access.server.node, access.server.uuid, root, files.map((f) => f.relative));
    await this.activity(access.server, actor, 'server.file.delete', { directory: root, files: files.map((f) => f.path) });
  }

  async createFolder(access: ServerAccess, rawRoot: string | undefined, name: string, actor: Actor): Promise<void> {
    const root = normalizeServerPath(rawRoot);
    const folder = childPath(root, name);
    await this.daemon.createDirectory(access.server.node, access.server.uuid, root, folder.relative);
    await this.activity(access.server, actor, 'server.file.create-directory', { directory: root, name: folder.relative, path: folder.path });
  }

  async chmod(access: ServerAccess, rawRoot: string | undefined, items: ChmodItemDto[], actor: Actor): Promise<void> {
    const root = normalizeServerPath(rawRoot);
    const files = items.map((f) => ({ ...childPath(root, f.file), mode: f.mode }));
    await this.daemon.chmodFiles(
      access.server.node,
      access.server.uuid,
      root,
      files.map((f) => ({ file: f.relative, mode: f.mode })),
    );
    await this.activity(access.server, actor, 'server.file.chmod', { directory: root, files: files.map((f) => ({ file: f.path, mode: f.mode })) });
  }

  /** A `.tar.gz` of the named entries, written by Wings into `root`; answers the archive's entry. */
  async compress(access: ServerAccess, rawRoot: string | undefined, names: string[], actor: Actor): Promise<FileEntryDto> {
    const root = normalizeServerPath(rawRoot);
    const files = names.map((n) => childPath(root, n));
    const stat = await this.mapMissing(access.server, root, () =>
      this.daemon.compressFiles(access.server.node, access.server.uuid, root, files.map((f) => f.relative)),
    );
    const entry = toFileEntry(root, stat);
    await this.activity(access.server, actor, 'server.file.compress', { directory: root, files: files.map((f) => f.path), archive: entry.path });
    return entry;
  }

  async decompress(access: ServerAccess, rawRoot: string | undefined, name: string, actor: Actor): Promise<void> {
    const root = normalizeServerPath(rawRoot);
    const file = childPath(root, name);
    await this.mapMissing(access.server, file.path, () => this.daemon.decompressFile(access.server.node, access.server.uuid, root, file.relative));
    await this.activity(access.server, actor, 'server.file.decompress', { directory: root, file: file.path });
  }

  /** Background pull into `directory`; the URL must be http(s) and resolve only to public addresses. */
  async pull(access: ServerAccess, rawUrl: string, rawDirectory: string | undefined, actor: Actor): Promise<PullStartedDto> {
    const directory = normalizeServerPath(rawDirectory);
    const url = await assertPublicUrl(rawUrl, this.outbound);
    const started = await this.daemon.pullFile(access.server.node, access.server.uuid, url.href, directory);
    await this.activity(access.server, actor, 'server.file.pull', { url: url.href, directory });
    return { identifier: started.identifier };
  }

  /** A one-time `/download/file` URL on the node. */
  downloadUrl(access: ServerAccess, auth: AuthContext, rawFile: string): SignedUrlDto {
    const file = this.filePath(rawFile);
    return { url: this.signer.signedUrl(access.server.node, access.server.uuid, auth.user, '/download/file', { file_path: file }) };
  }

  /**
   * `POST /files/upload?directory=`: the multipart body (field `files`) is piped to the
   * node's signed `/upload/file` URL as it arrives, never held in memory. A body over the node's
   * upload size (plus room for multipart headers) is cut off with 413.
   */
  async upload(access: ServerAccess, auth: AuthContext, rawDirectory: string | undefined, req: HttpRequest, actor: Actor): Promise<void> {
    const directory = normalizeServerPath(rawDirectory ?? '/');
    const contentType = headerOf(req, 'content-type') ?? '';
    if (!/^multipart\/form-data;\s*boundary=/i.test(contentType)) {
      throw new AppException(CommonError.VALIDATION_FAILED, {
        details: [{ field: 'files', message: 'the upload must be multipart/form-data with one or more parts named files' }],
      });
    }
    const limit = access.server.node.uploadSize * 1024 * 1024 + UPLOAD_OVERHEAD_BYTES;
    const declared = Number(headerOf(req, 'content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      throw this.tooLarge(access.server);
    }
    let seen = 0;
    let overLimit = false;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > limit) {
          overLimit = true;
          callback(new Error('upload over the size limit'));
          return;
        }
        callback(null, chunk);
      },
    });
    req.raw.pipe(capped);
    const url = new URL(this.signer.signedUrl(access.server.node, access.server.uuid, auth.user, '/upload/file', {}));
    url.searchParams.set('directory', directory);
    try {
      await this.daemon.streamUpload(access.server.node, url.href, capped, contentType);
    } catch (e) {
      if (overLimit) {
        throw this.tooLarge(access.server);
      }
      throw e;
    } finally {
      req.raw.unpipe(capped);
    }
    await this.activity(access.server, actor, 'server.file.upload', { directory });
  }

  private tooLarge(server: ServerSnapshot): AppException {
    return new AppException(FilesError.TOO_LARGE, {
      message: `Uploads to this server are limited to ${server.node.uploadSize} MiB`,
      details: { limitMiB: server.node.uploadSize },
    });
  }

  /** A one-time `/upload/file` URL on the node; the browser adds `&directory=`. */
  uploadUrl(access: ServerAccess, auth: AuthContext): SignedUrlDto {
    return { url: this.signer.signedUrl(access.server.node, access.server.uuid, auth.user, '/upload/file', {}) };
  }

  /** A path naming a file (not the root itself). */
  private filePath(raw: string): string {
    const path = normalizeServerPath(raw);
    if (path === '/') {
      throw new AppException(FilesError.PATH_INVALID, { message: 'Invalid path: a file path is required' });
    }
    return path;
  }

  private notFound(path: string): AppException {
    return new AppException(FilesError.NOT_FOUND, { message: `${path} does not exist on the server`, details: { path } });
  }

  /** Wings answers 500 for a missing file or directory: when `path` is indeed missing, that is our 404. */
  private async mapMissing<T>(server: ServerSnapshot, path: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      if (isDaemon500(e) && !(await this.exists(server, path))) {
        throw this.notFound(path);
      }
      throw e;
    }
  }

  private async exists(server: ServerSnapshot, path: string): Promise<boolean> {
    if (path === '/') {
      return true;
    }
    try {
      const parent = await this.daemon.listDirectory(server.node, server.uuid, parentOf(path));
      return (parent ?? []).some((s) => s.name === baseName(path));
    } catch (e) {
      // The parent is missing too; anything else keeps the daemon's own error.
      return !isDaemon500(e);
    }
  }

  private async activity(server: ServerSnapshot, actor: Actor, event: string, metadata: Record<string, unknown>): Promise<void> {
    await this.activityLog.byUser(server.id, actor, event, metadata);
  }
}
