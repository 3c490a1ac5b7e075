import { Logger } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import type { DatabasesRepository, LoadedDatabase } from 'src/modules/databases/databases.repository';
import type { MySqlHostClient } from 'src/modules/databases/mysql-host.client';
import { ServerDatabasesService } from 'src/modules/databases/server-databases.service';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import type { ServerActivityLog } from 'src/modules/servers/server-activity';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import type { EntityManager } from 'typeorm';
import { strictMock } from 'test/utils/strict-mock';
import type { ServerRecords } from 'src/modules/servers/server-records';

const manager = {} as EntityManager;
const actor: Actor = { userId: '9', username: 'owner', email: 'o@example.test', via: 'session', ip: '127.0.0.1' };
const server = { id: '12', nodeId: '3', databaseLimit: 0 } as ServerSnapshot;
const access: ServerAccess = { server, role: 'owner', permissions: [] };
const host = { id: '5', nodeId: null, maxDatabases: null, maxUserConnections: null, host: 'db.test', port: 3306 } as DatabaseHostEntity;
const record = {
  id: '40',
  serverId: '12',
  hostId: '5',
  host,
  database: 's12_main',
  username: 'u12_main',
  remote: '%',
  status: 'ready',
  createdAt: new Date(),
  updatedAt: new Date(),
} as LoadedDatabase;
const spec = { database: 's12_main', username: 'u12_main', remote: '%' };
const hostDown = new AppException(DatabaseError.HOST_UNAVAILABLE, { message: 'database host unavailable: connect ECONNREFUSED' });

/** `repo` also carries the lock on the server's row, by ServerRecords' name (`lock`). */
const build = ({ lock, ...repo }: Record<string, unknown>, client: Record<string, unknown>, activityLog: Record<string, unknown> = {}) =>
  new ServerDatabasesService(
    strictMock<DatabasesRepository>('repo', repo),
    strictMock<ServerRecords>('serverRecords', lock === undefined ? {} : { lock }),
    strictMock<MySqlHostClient>('client', client),
    strictMock<ServerActivityLog>('activityLog', activityLog),
    new ServerDeletionSteps(),
  );

/** The repository calls of a creation that gets as far as the host. */
const creatingRepo = (transaction: (fn: (m: EntityManager) => Promise<unknown>) => Promise<unknown>) => ({
  transaction: jest.fn(transaction),
  lock: jest.fn().mockResolvedValue(undefined),
  countOfServer: jest.fn().mockResolvedValue(0),
  existsOnServer: jest.fn().mockResolvedValue(false),
  hostsFor: jest.fn().mockResolvedValue([{ host, databases: 0 }]),
  lockHost: jest.fn().mockResolvedValue(host),
  countByHost: jest.fn().mockResolvedValue(new Map()),
  insertDatabase: jest.fn().mockResolvedValue(record),
});

describe(ServerDatabasesService.name, () => {
  it('should drop the database on the host again when the panel cannot commit after the host made it', async () => {
    const dropDatabase = jest.fn().mockResolvedValue(undefined);
    const sut = build(
      creatingRepo(async (fn) => {
        await fn(manager);
        throw new Error('commit failed');
      }),
      { createDatabase: jest.fn().mockResolvedValue(undefined), dropDatabase },
      { byUser: jest.fn().mockResolvedValue(undefined) },
    );
    await expect(sut.create(access, { name: 'main', remote: '%' }, actor)).rejects.toThrow('commit failed');
    expect(dropDatabase).toHaveBeenCalledWith(host, spec);
  });

  it('should roll back without touching the host again when the host refuses the creation', async () => {
    const refused = new AppException(DatabaseError.HOST_ERROR);
    const repo = creatingRepo((fn) => fn(manager));
    const sut = build(repo, { createDatabase: jest.fn().mockRejectedValue(refused) });
    await expect(sut.create(access, { name: 'main', remote: '%' }, actor)).rejects.toBe(refused);
    expect(repo.insertDatabase).toHaveBeenCalledWith(expect.objectContaining({ database: 's12_main', username: 'u12_main', hostId: '5' }), manager);
  });

  it('should refuse a name too long for the server id before any database work', async () => {
    const sut = build({}, {});
    await expect(sut.create(access, { name: 'n'.repeat(29), remote: '%' }, actor)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'name', message: 'name must be at most 28 characters on this server (its user u12_<name> may have 32)' }],
    });
  });

  it('should put the record back to ready and keep it when the host cannot drop the database', async () => {
    const setStatus = jest.fn().mockResolvedValue(undefined);
    const sut = build(
      { findOfServer: jest.fn().mockResolvedValue(record), claimForDelete: jest.fn().mockResolvedValue(true), setStatus },
      { dropDatabase: jest.fn().mockRejectedValue(hostDown) },
    );
    await expect(sut.delete(access, '40', actor)).rejects.toBe(hostDown);
    expect(setStatus).toHaveBeenCalledWith('40', 'ready');
  });

  it('should answer DATABASE_REVOKING without calling the host while another delete holds the record', async () => {
    const sut = build({ findOfServer: jest.fn().mockResolvedValue(record), claimForDelete: jest.fn().mockResolvedValue(false) }, {});
    await expect(sut.delete(access, '40', actor)).rejects.toMatchObject({ code: 'DATABASE_REVOKING', status: 409 });
  });

  it('should refuse to rotate a revoking database without calling the host', async () => {
    const sut = build({ findOfServer: jest.fn().mockResolvedValue({ ...record, status: 'revoking' }) }, {});
    await expect(sut.rotatePassword(access, '40', actor)).rejects.toMatchObject({ code: 'DATABASE_REVOKING' });
  });

  it('should let a forced server deletion remove the records even when the host cannot drop them', async () => {
    const deleteDatabase = jest.fn().mockResolvedValue(undefined);
    const sut = build(
      {
        allOfServer: jest.fn().mockResolvedValue([record]),
        claimForDelete: jest.fn().mockResolvedValue(false),
        transaction: jest.fn((fn: (m: EntityManager) => Promise<unknown>) => fn(manager)),
        deleteDatabase,
      },
      { dropDatabase: jest.fn().mockRejectedValue(hostDown) },
    );
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      await expect(sut.deleteAllOf(server, true)).resolves.toBeUndefined();
      expect(deleteDatabase).toHaveBeenCalledWith('40', manager);
      // The operator learns what was left on the host.
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ database: 's12_main', username: 'u12_main', hostId: '5' }),
        'forced server deletion: the database could not be dropped on its host and is left there',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('should stop an unforced server deletion at the first database the host cannot drop', async () => {
    const sut = build(
      {
        allOfServer: jest.fn().mockResolvedValue([record, { ...record, id: '41' }]),
        claimForDelete: jest.fn().mockResolvedValue(true),
        setStatus: jest.fn().mockResolvedValue(undefined),
      },
      { dropDatabase: jest.fn().mockRejectedValue(hostDown) },
    );
    await expect(sut.deleteAllOf(server, false)).rejects.toBe(hostDown);
  });
});
