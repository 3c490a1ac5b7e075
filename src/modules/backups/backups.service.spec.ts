import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import type { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import type { AppConfigService } from 'src/config/app-config.service';
import type { BackupEntity } from 'src/modules/backups/backup.entity';
import type { BackupsRepository } from 'src/modules/backups/backups.repository';
import type { BackupStorage } from 'src/modules/backups/hosts/backup-storage';
import { BackupsService, parseIgnored } from 'src/modules/backups/backups.service';
import type { DaemonTokenSigner } from 'src/modules/daemon-gateway/daemon-token-signer';
import type { DaemonGateway } from 'src/modules/daemon-gateway/daemon.gateway';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ALL_SERVER_PERMISSIONS } from 'src/modules/servers/server-permissions';
import type { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import { strictMock } from 'test/utils/strict-mock';
import type { ServerRecords } from 'src/modules/servers/server-records';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import { PanelEvents } from 'src/common/events/panel-events';

const manager = {} as EntityManager;
const now = new Date('2026-03-04T05:06:07.891Z');
const actor: Actor = { userId: '9', username: 'owner', email: 'o@example.test', via: 'session', ip: '127.0.0.1' };
const node = { id: '3' };
const serverWith = (changes: Partial<ServerSnapshot> = {}): ServerSnapshot =>
  ({ id: '12', uuid: 'aaaaaaaa-0000-4000-8000-000000000001', nodeId: '3', node, status: null, suspended: false, backupLimit: 2, ...changes }) as ServerSnapshot;
const accessTo = (server: ServerSnapshot, permissions = ALL_SERVER_PERMISSIONS): ServerAccess => ({ server, role: 'owner', permissions });

const backupRow = (changes: Partial<BackupEntity> = {}): BackupEntity =>
  ({
    id: '40',
    uuid: 'bbbbbbbb-0000-4000-8000-000000000040',
    serverId: '12',
    name: 'Nightly',
    ignoredFiles: [],
    disk: 'wings',
    backupHostId: null,
    uploadId: null,
    checksum: 'sha1:' + 'a'.repeat(40),
    bytes: '1024',
    isSuccessful: true,
    isLocked: false,
    completedAt: now,
    createdAt: now,
    updatedAt: now,
    ...changes,
  });

const daemonError = (status: number) =>
  new AppException({ code: 'DAEMON_HTTP_ERROR', category: status >= 500 ? ErrorCategory.INTERNAL : ErrorCategory.BAD_REQUEST, message: 'daemon said no' }, { status });

/** `repo` also carries the calls on the server's row, by ServerRecords' names (`lock`, `markRestoring`, `endRestoring`). */
const build = (
  { lock, markRestoring, endRestoring, ...repo }: Record<string, unknown>,
  daemon: Record<string, unknown> = {},
  options: { zeroLimitUnlimited?: boolean; activityLog?: Record<string, unknown> } = {},
) =>
  new BackupsService(
    strictMock<BackupsRepository>('repo', { transaction: jest.fn((fn: (m: EntityManager) => Promise<unknown>) => fn(manager)), ...repo }),
    strictMock<ServerRecords>('serverRecords', Object.fromEntries(Object.entries({ lock, markRestoring, endRestoring }).filter(([, f]) => f !== undefined))),
    strictMock<ServerActivityLog>('activityLog', options.activityLog ?? { byUser: jest.fn().mockResolvedValue(undefined), bySystem: jest.fn().mockResolvedValue(undefined) }),
    strictMock<DaemonGateway>('daemon', daemon),
    strictMock<DaemonTokenSigner>('signer', {}),
    strictMock<AppConfigService>('config', { backups: { zeroLimitUnlimited: options.zeroLimitUnlimited ?? false } }),
    strictMock<Clock>('clock', { now: () => now }),
    strictMock<BackupStorage>('storage', { s3HostOfNode: jest.fn().mockResolvedValue(null) }),
    new ServerDeletionSteps(),
    new PanelEvents(),
  );

/** The repository calls of a creation that gets as far as the daemon. */
const creatingRepo = (count: number) => ({
  lock: jest.fn().mockResolvedValue(undefined),
  countNonFailed: jest.fn().mockResolvedValue(count),
  insert: jest.fn((entry: Partial<BackupEntity>) => Promise.resolve(backupRow({ ...entry, id: '41', isSuccessful: false, completedAt: null, checksum: null }))),
  findById: jest.fn().mockResolvedValue(null),
});

describe(BackupsService.name, () => {
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  describe('idOfUuid', () => {
    it('should find the backup of the server by its uuid, in lower case', async () => {
      const findIdByUuid = jest.fn().mockResolvedValue('40');
      const sut = build({ findIdByUuid });
      expect(await sut.idOfUuid(accessTo(serverWith()), 'BBBBBBBB-0000-4000-8000-000000000040')).toBe('40');
      expect(findIdByUuid).toHaveBeenCalledWith('12', 'bbbbbbbb-0000-4000-8000-000000000040');
    });

    it.each([
      ['the server has no backup with that uuid', 'bbbbbbbb-0000-4000-8000-000000000041'],
      ['the uuid is not one', 'not-a-uuid'],
    ])('should answer BACKUP_NOT_FOUND when %s', async (_case, uuid) => {
      const sut = build({ findIdByUuid: jest.fn().mockResolvedValue(null) });
      await expect(sut.idOfUuid(accessTo(serverWith()), uuid)).rejects.toMatchObject({ code: 'BACKUP_NOT_FOUND' });
    });
  });

  describe('create', () => {
    it('should take the row back out and pass the daemon error on when the daemon refuses the backup', async () => {
      const repo = { ...creatingRepo(0), delete: jest.fn().mockResolvedValue(undefined) };
      const refusal = daemonError(500);
      const recordActivity = jest.fn();
      const sut = build(repo, { createBackup: jest.fn().mockRejectedValue(refusal) }, { activityLog: { byUser: recordActivity, bySystem: recordActivity } });
      await expect(sut.create(accessTo(serverWith()), actor, { name: 'x' })).rejects.toBe(refusal);
      expect(repo.delete).toHaveBeenCalledWith('41');
      expect(recordActivity).not.toHaveBeenCalled();
    });

    it('should send the ignore list joined by newlines and name an unnamed backup after the time', async () => {
      const createBackup = jest.fn().mockResolvedValue(undefined);
      const repo = creatingRepo(1);
      const sut = build(repo, { createBackup });
      const made = await sut.create(accessTo(serverWith()), actor, { ignored: ' logs/ \r\n\n#c\n*.tmp' });
      expect(made).toMatchObject({ name: 'Backup at 2026-03-04T05:06:07Z', ignoredFiles: ['logs/', '#c', '*.tmp'], status: 'in_progress' });
      expect(createBackup).toHaveBeenCalledWith(node, serverWith().uuid, made.uuid, 'logs/\n#c\n*.tmp', 'wings');
      expect(repo.lock).toHaveBeenCalledWith('12', manager);
    });

    it('should refuse at the limit without calling the daemon', async () => {
      const sut = build(creatingRepo(2));
      await expect(sut.create(accessTo(serverWith()), actor, {})).rejects.toMatchObject({ code: 'BACKUP_LIMIT_REACHED', status: 409 });
    });

    it('should refuse every backup at a limit of 0, unless BACKUP_LIMIT_ZERO_UNLIMITED makes 0 mean no limit', async () => {
      await expect(build({}).create(accessTo(serverWith({ backupLimit: 0 })), actor, {})).rejects.toMatchObject({ code: 'BACKUPS_DISABLED' });

      const { countNonFailed: _notAsked, ...repo } = creatingRepo(0);
      const createBackup = jest.fn().mockResolvedValue(undefined);
      const made = await build(repo, { createBackup }, { zeroLimitUnlimited: true }).create(accessTo(serverWith({ backupLimit: 0 })), actor, {});
      expect(made.status).toBe('in_progress');
      expect(createBackup).toHaveBeenCalledTimes(1);
    });

    it('should refuse a locked backup to a caller who may not delete backups', async () => {
      const access = accessTo(serverWith(), ['server.view', 'server.backup.create']);
      await expect(build({}).create(access, actor, { is_locked: true })).rejects.toMatchObject({ code: 'SERVER_PERMISSION_DENIED', status: 403 });
    });

    it.each([
      [{ suspended: true }, 'SERVER_SUSPENDED'],
      [{ status: 'installing' as const }, 'SERVER_BUSY'],
      [{ status: 'restoring_backup' as const }, 'SERVER_BUSY'],
      [{ status: 'install_failed' as const }, 'SERVER_NOT_INSTALLED'],
    ])('should refuse a server that is %j', async (state, code) => {
      await expect(build({}).create(accessTo(serverWith(state)), actor, {})).rejects.toMatchObject({ code, status: 409 });
    });

    it('should back up a server whose reinstall failed: its files are still there', async () => {
      const made = await build(creatingRepo(0), { createBackup: jest.fn().mockResolvedValue(undefined) }).create(
        accessTo(serverWith({ status: 'reinstall_failed' })),
        actor,
        {},
      );
      expect(made.status).toBe('in_progress');
    });
  });

  describe('createFromSchedule', () => {
    it('should delete the oldest unlocked backup on the node and here before making room, an archive already gone included', async () => {
      const oldest = backupRow({ id: '30', name: 'oldest' });
      const counts = [2, 1];
      const repo = {
        ...creatingRepo(1),
        countNonFailed: jest.fn(() => Promise.resolve(counts.shift() ?? 1)),
        oldestRotatable: jest.fn().mockResolvedValue(oldest),
        delete: jest.fn().mockResolvedValue(undefined),
      };
      const deleteBackup = jest.fn().mockRejectedValue(daemonError(404));
      const createBackup = jest.fn().mockResolvedValue(undefined);
      const recordActivity = jest.fn().mockResolvedValue(undefined);
      // Only bySystem is given: an entry with an actor would fail the strict mock.
      const made = await build(repo, { deleteBackup, createBackup }, { activityLog: { bySystem: recordActivity } }).createFromSchedule(serverWith(), 'Nightly');
      expect(made.name).toBe('Nightly');
      expect(deleteBackup).toHaveBeenCalledWith(node, serverWith().uuid, oldest.uuid);
      expect(repo.delete).toHaveBeenCalledWith('30', manager);
      expect(repo.oldestRotatable).toHaveBeenCalledTimes(1);
      expect(recordActivity.mock.calls.map(([, via, event]: [string, string, string]) => [event, via])).toEqual([
        ['server.backup.delete', 'schedule'],
        ['server.backup.start', 'schedule'],
      ]);
    });

    it('should keep the backup row when the node fails to delete its archive, and make no new backup', async () => {
      const failure = daemonError(500);
      const repo = { countNonFailed: jest.fn().mockResolvedValue(2), oldestRotatable: jest.fn().mockResolvedValue(backupRow()) };
      await expect(build(repo, { deleteBackup: jest.fn().mockRejectedValue(failure) }).createFromSchedule(serverWith())).rejects.toBe(failure);
    });

    it('should refuse with the limit when every backup is locked or still running', async () => {
      const repo = { ...creatingRepo(2), oldestRotatable: jest.fn().mockResolvedValue(null) };
      await expect(build(repo).createFromSchedule(serverWith())).rejects.toMatchObject({ code: 'BACKUP_LIMIT_REACHED' });
    });
  });

  describe('restore', () => {
    it('should put the server back in its previous state when the daemon refuses the restore', async () => {
      const backup = backupRow();
      const endRestoring = jest.fn().mockResolvedValue(undefined);
      const refusal = daemonError(500);
      const recordActivity = jest.fn();
      const sut = build(
        { findOfServer: jest.fn().mockResolvedValue(backup), markRestoring: jest.fn().mockResolvedValue(true), endRestoring },
        { restoreBackup: jest.fn().mockRejectedValue(refusal) },
        { activityLog: { byUser: recordActivity, bySystem: recordActivity } },
      );
      await expect(sut.restore(accessTo(serverWith({ status: 'reinstall_failed' })), actor, '40', true)).rejects.toBe(refusal);
      expect(endRestoring).toHaveBeenCalledWith('12', 'reinstall_failed');
      expect(recordActivity).not.toHaveBeenCalled();
    });

    it('should refuse when the server changed state between the check and the mark', async () => {
      const sut = build({ findOfServer: jest.fn().mockResolvedValue(backupRow()), markRestoring: jest.fn().mockResolvedValue(false) });
      await expect(sut.restore(accessTo(serverWith()), actor, '40', false)).rejects.toMatchObject({ code: 'SERVER_BUSY' });
    });
  });

  describe('delete', () => {
    it('should delete a failed backup without asking the node, which holds no archive of it', async () => {
      const repo = { findOfServer: jest.fn().mockResolvedValue(backupRow({ isSuccessful: false, checksum: null })), delete: jest.fn().mockResolvedValue(undefined) };
      await build(repo).delete(accessTo(serverWith()), actor, '40');
      expect(repo.delete).toHaveBeenCalledWith('40', manager);
    });

    it('should keep the row when the node cannot delete the archive', async () => {
      const failure = daemonError(500);
      const sut = build({ findOfServer: jest.fn().mockResolvedValue(backupRow()) }, { deleteBackup: jest.fn().mockRejectedValue(failure) });
      await expect(sut.delete(accessTo(serverWith()), actor, '40')).rejects.toBe(failure);
    });

    it('should refuse a locked backup and one still being made', async () => {
      const locked = build({ findOfServer: jest.fn().mockResolvedValue(backupRow({ isLocked: true })) });
      await expect(locked.delete(accessTo(serverWith()), actor, '40')).rejects.toMatchObject({ code: 'BACKUP_LOCKED' });
      const running = build({ findOfServer: jest.fn().mockResolvedValue(backupRow({ isSuccessful: false, completedAt: null })) });
      await expect(running.delete(accessTo(serverWith()), actor, '40')).rejects.toMatchObject({ code: 'BACKUP_IN_PROGRESS' });
    });
  });

  describe(parseIgnored.name, () => {
    it('should keep one pattern a line, trimmed, without blank lines', () => {
      expect(parseIgnored(undefined)).toEqual([]);
      expect(parseIgnored('')).toEqual([]);
      expect(parseIgnored('a\r\n\n  b/  \n\t\n!c')).toEqual(['a', 'b/', '!c']);
    });
  });
});
