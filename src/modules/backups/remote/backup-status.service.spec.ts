import type { EntityManager } from 'typeorm';
import type { BackupsRepository, BackupWithServer } from 'src/modules/backups/backups.repository';
import type { BackupStorage } from 'src/modules/backups/hosts/backup-storage';
import { BackupStatusService } from 'src/modules/backups/remote/backup-status.service';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import type { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { ServerRecords } from 'src/modules/servers/server-records';
import { FakeClock } from 'test/utils/fake-clock';
import { strictMock } from 'test/utils/strict-mock';
import { PanelEvents } from 'src/common/events/panel-events';

const manager = {} as EntityManager;
const now = new Date('2026-03-04T05:06:07Z');
const node = { id: '3' } as NodeEntity;
const pending = { disk: 'wings', uploadId: null, id: '40', uuid: 'bbbbbbbb-0000-4000-8000-000000000040', serverId: '12', name: 'Nightly', isLocked: true, completedAt: null } as BackupWithServer;

const build = (repo: Partial<Record<keyof BackupsRepository, jest.Mock>>, recordActivity = jest.fn().mockResolvedValue(undefined)) =>
  new BackupStatusService(
    strictMock<BackupsRepository>('repo', {
      transaction: jest.fn((fn: (m: EntityManager) => Promise<unknown>) => fn(manager)),
      findByUuidOnNode: jest.fn().mockResolvedValue(pending),
      ...repo,
    }),
    strictMock<ServerRecords>('serverRecords'),
    strictMock<ServerActivityLog>('activityLog', { byDaemon: recordActivity }),
    new FakeClock(now.getTime()),
    strictMock<BackupStorage>('storage'),
    new PanelEvents(),
  );

describe(BackupStatusService.name, () => {
  it('should look the backup up on the calling node only', async () => {
    const findByUuidOnNode = jest.fn().mockResolvedValue(null);
    await expect(build({ findByUuidOnNode }).complete(node, pending.uuid, { successful: false })).rejects.toMatchObject({ code: 'BACKUP_NOT_FOUND', status: 404 });
    expect(findByUuidOnNode).toHaveBeenCalledWith(pending.uuid, '3');
  });

  it('should store a failure unlocked, without checksum and size', async () => {
    const complete = jest.fn().mockResolvedValue(true);
    const recordActivity = jest.fn().mockResolvedValue(undefined);
    await build({ complete }, recordActivity).complete(node, pending.uuid, { successful: false, checksum: '', checksum_type: 'sha1', size: 0, parts: null });
    expect(complete).toHaveBeenCalledWith('40', { isSuccessful: false, checksum: null, bytes: '0', completedAt: now, isLocked: false, uploadId: null }, manager);
    expect(recordActivity).toHaveBeenCalledWith('12', 'server.backup.fail', { uuid: pending.uuid, name: 'Nightly' }, { manager, at: now });
  });

  it('should refuse the second of two reports that raced past the first check', async () => {
    const complete = jest.fn().mockResolvedValue(false);
    const recordActivity = jest.fn();
    const report = { successful: true, checksum: 'ab'.repeat(20), checksum_type: 'sha1', size: 1, parts: null };
    await expect(build({ complete }, recordActivity).complete(node, pending.uuid, report)).rejects.toMatchObject({ code: 'BACKUP_ALREADY_COMPLETED', status: 400 });
    expect(recordActivity).not.toHaveBeenCalled();
  });
});
