import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { AppConfigService } from 'src/config/app-config.service';
import { BackupEntity, backupStatus } from 'src/modules/backups/backup.entity';
import { BackupError } from 'src/modules/backups/backups.errors';
import { BackupsRepository } from 'src/modules/backups/backups.repository';
import { BackupStorage } from 'src/modules/backups/hosts/backup-storage';
import { BackupDownloadDto, BackupListMetaDto, BackupResponseDto, CreateBackupDto, toBackupResponse } from 'src/modules/backups/dto/backup.dto';
import { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';
import { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ActivityOptions, ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerError } from 'src/modules/servers/servers.errors';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import { ServerRecords } from 'src/modules/servers/server-records';
import { about, PanelEvents } from 'src/common/events/panel-events';
import { errorMessage } from 'src/common/errors/error-message';

export type BackupList = Omit<Paginated<BackupResponseDto>, 'meta'> & { meta: BackupListMetaDto };

/** Who started something: a signed-in user, or a schedule of the server. */
type Initiator = Actor | 'schedule';

interface NewBackup {
  name: string;
  ignoredFiles: string[];
  isLocked: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A daemon answer meaning "the archive is not there", so there is nothing left to delete. */
const isDaemonNotFound = (e: unknown): boolean => e instanceof AppException && e.code === 'DAEMON_HTTP_ERROR' && e.status === 404;

/** The ignore list as Wings takes it: one pattern a line, blank lines dropped. */
export const parseIgnored = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * Server backups, on the node's disk (Wings' local adapter) or in the S3 bucket of the node's backup
 * host (docs/wings.md#backups, docs/backup-hosts.md). The row comes
 * first and the daemon second, so the daemon's report always finds its backup; a daemon that refuses takes
 * the row back out.
 */
@Injectable()
export class BackupsService implements OnModuleInit {
  private readonly logger = new Logger(BackupsService.name);

  constructor(
    private readonly repo: BackupsRepository,
    private readonly serverRecords: ServerRecords,
    private readonly activityLog: ServerActivityLog,
    private readonly daemon: DaemonGateway,
    private readonly signer: DaemonTokenSigner,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
    private readonly storage: BackupStorage,
    private readonly deletionSteps: ServerDeletionSteps,
    private readonly events: PanelEvents,
  ) {}

  onModuleInit(): void {
    this.deletionSteps.register('backups', (server, { force }) => this.removeStoredOf(server, force));
  }

  async list(access: ServerAccess, page: Page): Promise<BackupList> {
    const { server } = access;
    const [rows, total] = await this.repo.pageOfServer(server.id, page.skip, page.perPage);
    const { data, meta } = paginated(rows.map(toBackupResponse), total, page);
    return { data, meta: { ...meta, backupCount: await this.repo.countNonFailed(server.id), backupLimit: this.limitOf(server) } };
  }

  /** The id of the server's backup with this uuid (how Pterodactyl names a backup); another server's, or none, is 404. */
  async idOfUuid(access: ServerAccess, uuid: string): Promise<string> {
    const id = UUID.test(uuid) ? await this.repo.findIdByUuid(access.server.id, uuid.toLowerCase()) : null;
    if (!id) {
      throw new AppException(BackupError.NOT_FOUND);
    }
    return id;
  }

  async view(access: ServerAccess, id: string): Promise<BackupResponseDto> {
    return toBackupResponse(await this.require(access, id));
  }

  /** A user's backup: refused at the server's limit (no rotation), and locked only by who may delete backups. */
  async create(access: ServerAccess, actor: Actor, dto: CreateBackupDto): Promise<BackupResponseDto> {
    if (dto.is_locked === true && !access.permissions.includes('server.backup.delete')) {
      throw new AppException(BackupError.LOCK_NOT_ALLOWED);
    }
    const backup = await this.start(access.server, this.describe(dto.name, dto.ignored, dto.is_locked ?? false), false, actor);
    return toBackupResponse(backup);
  }

  /**
   * A schedule's backup task. At the server's limit the oldest unlocked successful backups are
   * deleted (daemon and row) to make room, as Pterodactyl does for scheduled backups; when none can
   * go, or backups are disabled, it fails like a user's request.
   */
  async createFromSchedule(server: ServerSnapshot, name?: string | null, ignored?: string | null): Promise<BackupResponseDto> {
    const spec = this.describe(name ?? undefined, ignored ?? undefined, false);
    try {
      return toBackupResponse(await this.start(server, spec, true, 'schedule'));
    } catch (e) {
      // Nobody is there to see the error: a scheduled backup that cannot start is an alert (docs/webhooks.md).
      await this.events.publish({
        event: 'backup.failed',
        ...about(server, server.node),
        data: { name: spec.name, scheduled: true, error: errorMessage(e) },
      });
      throw e;
    }
  }

  /** A one-time `/download/backup` URL on the node, or a short-lived presigned GET for S3; successful backups only. */
  async downloadUrl(access: ServerAccess, auth: AuthContext, actor: Actor, id: string): Promise<BackupDownloadDto> {
    const backup = await this.require(access, id);
    this.assertSuccessful(backup, 'downloaded');
    const url =
      backup.disk === 's3'
        ? await this.storage.downloadUrl(access.server.uuid, backup)
        : this.signer.signedUrl(access.server.node, access.server.uuid, auth.user, '/download/backup', { backup_uuid: backup.uuid });
    await this.activity(access.server, actor, 'server.backup.download', this.subject(backup));
    return { url };
  }

  async toggleLock(access: ServerAccess, actor: Actor, id: string): Promise<BackupResponseDto> {
    const backup = await this.require(access, id);
    const toggled = await this.repo.transaction(async (manager) => {
      const row = await this.repo.toggleLock(backup.id, manager);
      if (!row) {
        throw new AppException(BackupError.NOT_FOUND);
      }
      const event = row.isLocked ? 'server.backup.lock' : 'server.backup.unlock';
      await this.activity(access.server, actor, event, this.subject(row), { manager });
      return row;
    });
    return toBackupResponse(toggled);
  }

  /**
   * The server shows `restoring_backup` until the daemon reports back (POST /api/remote/backups/
   * {backup}/restore); Wings stops it first. A daemon that refuses leaves the status as it was.
   */
  async restore(access: ServerAccess, actor: Actor, id: string, truncate: boolean): Promise<void> {
    const { server } = access;
    const backup = await this.require(access, id);
    this.assertSuccessful(backup, 'restored');
    this.assertServerUsable(server);
    if (!(await this.serverRecords.markRestoring(server.id, server.status))) {
      throw new AppException(ServerError.BUSY, { message: 'The server changed state meanwhile; reload and try again' });
    }
    const at = this.clock.now();
    try {
      // An S3 archive is fetched by Wings from a presigned GET before it answers.
      const downloadUrl = backup.disk === 's3' ? await this.storage.downloadUrl(server.uuid, backup) : undefined;
      await this.daemon.restoreBackup(server.node, server.uuid, backup.uuid, truncate, downloadUrl);
    } catch (e) {
      await this.serverRecords.endRestoring(server.id, server.status);
      throw e;
    }
    await this.activity(server, actor, 'server.backup.restore', { ...this.subject(backup), truncate }, { at });
  }

  /** Locked and in-progress backups stay; a successful one leaves the node first, a failed one has nothing there. */
  async delete(access: ServerAccess, actor: Actor, id: string): Promise<void> {
    const { server } = access;
    const backup = await this.require(access, id);
    if (backup.isLocked) {
      throw new AppException(BackupError.LOCKED);
    }
    if (backupStatus(backup) === 'in_progress') {
      throw new AppException(BackupError.IN_PROGRESS, { message: 'The backup is still being made; delete it once it has finished' });
    }
    if (backup.isSuccessful && server.status === 'restoring_backup') {
      throw new AppException(ServerError.BUSY, { message: 'The server is restoring a backup; wait for it to finish' });
    }
    await this.remove(server, backup, actor, {});
  }

  private async start(server: ServerSnapshot, spec: NewBackup, rotate: boolean, by: Initiator): Promise<BackupEntity> {
    this.assertServerUsable(server);
    const limit = this.limitOf(server);
    if (limit === 0) {
      throw new AppException(BackupError.DISABLED);
    }
    if (rotate && limit !== null) {
      await this.rotate(server, limit - 1);
    }
    // The node's backup host now decides where this archive goes; the row remembers it for good.
    const host = await this.storage.s3HostOfNode(server.nodeId);
    const backup = await this.repo.transaction(async (manager) => {
      await this.serverRecords.lock(server.id, manager);
      if (limit !== null && (await this.repo.countNonFailed(server.id, manager)) >= limit) {
        throw new AppException(BackupError.LIMIT_REACHED, { message: `This server has reached its backup limit (${limit})`, details: { limit } });
      }
      const where = host ? { disk: 's3' as const, backupHostId: host.id } : { disk: 'wings' as const, backupHostId: null };
      return this.repo.insert({ uuid: randomUUID(), serverId: server.id, ...where, ...spec }, manager);
    });
    const at = this.clock.now();
    try {
      await this.daemon.createBackup(server.node, server.uuid, backup.uuid, backup.ignoredFiles.join('\n'), backup.disk);
    } catch (e) {
      // No row without a backup under way; if the daemon did start one after all, its report finds no row and it drops the archive.
      await this.repo.delete(backup.id).catch((err: Error) => this.logger.error({ backup: backup.uuid, error: err.message }, 'could not remove a refused backup'));
      throw e;
    }
    await this.activity(server, by, 'server.backup.start', { ...this.subject(backup), locked: backup.isLocked }, { at });
    return (await this.repo.findById(backup.id)) ?? backup;
  }

  /**
   * A deleted server's S3 objects (and uploads under way) leave the bucket with it: the node deletes
   * local archives itself, but nothing would ever delete these. A bucket that refuses stops the
   * deletion, unless `force`; the rows go with the server's.
   */
  private async removeStoredOf(server: Pick<ServerSnapshot, 'id' | 'uuid'>, force: boolean): Promise<void> {
    for (const backup of await this.repo.s3OfServer(server.id)) {
      try {
        await this.storage.remove(server.uuid, backup);
      } catch (e) {
        if (!force) {
          throw e;
        }
        this.logger.warn({ backup: backup.uuid, error: errorMessage(e) }, 'could not remove a deleted server\'s backup from S3');
      }
    }
  }

  /** Deletes the oldest unlocked successful backups until at most `keep` count toward the limit. */
  private async rotate(server: ServerSnapshot, keep: number): Promise<void> {
    for (let count = await this.repo.countNonFailed(server.id); count > keep; count -= 1) {
      const oldest = await this.repo.oldestRotatable(server.id);
      if (!oldest) {
        return; // nothing may go: the locked transaction refuses with the limit
      }
      await this.remove(server, oldest, 'schedule', { rotated: true });
    }
  }

  private async remove(server: ServerSnapshot, backup: BackupEntity, by: Initiator, extra: Record<string, unknown>): Promise<void> {
    if (backup.disk === 's3') {
      // The object, and an upload a failed backup may have left behind.
      await this.storage.remove(server.uuid, backup);
    } else if (backup.isSuccessful) {
      try {
        await this.daemon.deleteBackup(server.node, server.uuid, backup.uuid);
      } catch (e) {
        if (!isDaemonNotFound(e)) {
          throw e;
        }
        this.logger.warn({ backup: backup.uuid }, 'the archive was already gone from the node');
      }
    }
    await this.repo.transaction(async (manager: EntityManager) => {
      await this.repo.delete(backup.id, manager);
      const metadata = { ...this.subject(backup), failed: !backup.isSuccessful, ...extra };
      await this.activity(server, by, 'server.backup.delete', metadata, { manager });
    });
  }

  /** The server's limit: a number, or null for none (a limit of 0 with BACKUP_LIMIT_ZERO_UNLIMITED). */
  private limitOf(server: ServerSnapshot): number | null {
    if (server.backupLimit > 0) {
      return server.backupLimit;
    }
    return this.config.backups.zeroLimitUnlimited ? null : 0;
  }

  private describe(name: string | undefined, ignored: string | undefined, isLocked: boolean): NewBackup {
    const stamp = this.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { name: name?.trim() || `Backup at ${stamp}`, ignoredFiles: parseIgnored(ignored), isLocked };
  }

  /** Backups are made and restored only on an installed server that is not suspended or busy. */
  private assertServerUsable(server: ServerSnapshot): void {
    if (server.suspended) {
      throw new AppException(ServerError.SUSPENDED);
    }
    switch (server.status) {
      case 'installing':
        throw new AppException(ServerError.BUSY, { message: 'The server is installing; wait for it to finish' });
      case 'restoring_backup':
        throw new AppException(ServerError.BUSY, { message: 'The server is restoring a backup; wait for it to finish' });
      case 'install_failed':
        throw new AppException(BackupError.SERVER_NOT_INSTALLED);
      case 'reinstall_failed':
      case null:
        return;
    }
  }

  private assertSuccessful(backup: BackupEntity, use: 'downloaded' | 'restored'): void {
    const status = backupStatus(backup);
    if (status !== 'successful') {
      const why = status === 'in_progress' ? 'it is still being made' : 'it failed';
      throw new AppException(BackupError.NOT_SUCCESSFUL, { message: `The backup cannot be ${use}: ${why}`, details: { status } });
    }
  }

  private async require(access: ServerAccess, id: string): Promise<BackupEntity> {
    const backup = await this.repo.findOfServer(access.server.id, id);
    if (!backup) {
      throw new AppException(BackupError.NOT_FOUND);
    }
    return backup;
  }

  private subject(backup: BackupEntity): Record<string, unknown> {
    return { uuid: backup.uuid, name: backup.name };
  }

  private activity(
    server: ServerSnapshot,
    by: Initiator,
    event: string,
    metadata: Record<string, unknown>,
    options: ActivityOptions = {},
  ): Promise<void> {
    return by === 'schedule'
      ? this.activityLog.bySystem(server.id, 'schedule', event, metadata, options)
      : this.activityLog.byUser(server.id, by, event, metadata, options);
  }
}
