import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import type { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { databaseNameOf, generateDatabasePassword, maxNameLength, usernameOf } from 'src/modules/databases/database-names';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import { DatabasesRepository, LoadedDatabase } from 'src/modules/databases/databases.repository';
import {
  CreatedServerDatabaseDto,
  CreateServerDatabaseDto,
  DatabasePasswordMetaDto,
  ServerDatabaseResponseDto,
  toCreatedServerDatabase,
  toServerDatabaseResponse,
} from 'src/modules/databases/dto/server-database.dto';
import { hasRoom, rankHosts } from 'src/modules/databases/host-choice';
import { DatabaseSpec, MySqlHostClient } from 'src/modules/databases/mysql-host.client';
import type { ServerAccess } from 'src/modules/servers/server-access';
import { ServerDeletionSteps } from 'src/modules/servers/server-deletion';
import type { ServerSnapshot } from 'src/modules/servers/server-context';

/** What these steps read of a server: a route's ServerContext or the row a deletion loaded both have it. */
type ServerRow = Pick<ServerSnapshot, 'id' | 'nodeId' | 'databaseLimit'>;
import { NO_DATABASES } from 'src/modules/servers/feature-limits';
import { ServerActivityLog } from 'src/modules/servers/server-activity';
import { ServerRecords } from 'src/modules/servers/server-records';

/** A `revoking` mark older than this is left from a panel that stopped mid-delete; a new delete may take over. */
const STALE_REVOKING_SECONDS = 120;

export type DatabaseList = Paginated<ServerDatabaseResponseDto> & { hostAvailable: boolean };

/** A database as stored, with its host (never its password: the panel keeps none). */
export type DatabaseRecord = LoadedDatabase;

const specOf = (d: Pick<LoadedDatabase, 'database' | 'username' | 'remote'>): DatabaseSpec => ({
  database: d.database,
  username: d.username,
  remote: d.remote,
});

/**
 * A server's databases (docs/api.md#databases). Passwords are generated here, handed to
 * the host and returned once; they are never stored or logged.
 */
@Injectable()
export class ServerDatabasesService implements OnModuleInit {
  private readonly logger = new Logger(ServerDatabasesService.name);

  constructor(
    private readonly repo: DatabasesRepository,
    private readonly serverRecords: ServerRecords,
    private readonly client: MySqlHostClient,
    private readonly activityLog: ServerActivityLog,
    private readonly deletionSteps: ServerDeletionSteps,
  ) {}

  onModuleInit(): void {
    this.deletionSteps.register('databases', (server, { force }) => this.deleteAllOf(server, force));
  }

  async list(access: ServerAccess, page: Page): Promise<DatabaseList> {
    const { server } = access;
    const [rows, total] = await this.repo.findPageOfServer(server.id, page.skip, page.perPage);
    const hosts = rankHosts(await this.repo.hostsFor(server.nodeId), server.nodeId);
    const { data, meta } = paginated(
      rows.map((d) => toServerDatabaseResponse(d, d.host)),
      total,
      page,
    );
    return { data, hostAvailable: hosts.length > 0, meta };
  }

  /** Every database of the server with its host, as stored (administrators' views: the Pterodactyl application API). */
  records(access: ServerAccess): Promise<DatabaseRecord[]> {
    return this.repo.allOfServer(access.server.id);
  }

  /** The databases of these servers, by server, in one query: an administrator's view of many servers at once. */
  async recordsOfServers(serverIds: string[]): Promise<Map<string, DatabaseRecord[]>> {
    const byServer = new Map<string, DatabaseRecord[]>();
    for (const record of await this.repo.allOfServers(serverIds)) {
      byServer.set(record.serverId, [...(byServer.get(record.serverId) ?? []), record]);
    }
    return byServer;
  }

  /** One database of the server with its host (404 DATABASE_NOT_FOUND when it is not this server's). */
  record(access: ServerAccess, id: string): Promise<DatabaseRecord> {
    return this.require(access, id);
  }

  /**
   * All or nothing: the row is written in a transaction that commits only after the host has made
   * the database, the user and the grant; a host failure undoes what the host made and rolls back.
   * An administrator may name the host (`hostId`); it must serve the server's node and have room
   * (422-style VALIDATION_FAILED on `host` otherwise). Without it the panel picks one.
   */
  async create(
    access: ServerAccess,
    dto: CreateServerDatabaseDto,
    actor: Actor,
    options: { hostId?: string } = {},
  ): Promise<{ data: CreatedServerDatabaseDto; meta: DatabasePasswordMetaDto; record: DatabaseRecord }> {
    const { server } = access;
    const longest = maxNameLength(server.id);
    if (dto.name.length > longest) {
      throw new AppException(CommonError.VALIDATION_FAILED, {
        details: [{ field: 'name', message: `name must be at most ${longest} characters on this server (its user u${server.id}_<name> may have 32)` }],
      });
    }
    const spec: DatabaseSpec = { database: databaseNameOf(server.id, dto.name), username: usernameOf(server.id, dto.name), remote: dto.remote };
    const password = generateDatabasePassword();
    let madeOn: DatabaseHostEntity | undefined;
    try {
      const { row, host } = await this.repo.transaction(async (manager) => {
        await this.serverRecords.lock(server.id, manager);
        const count = await this.repo.countOfServer(server.id, manager);
        // 0 is unlimited; -1 is none (no databases at all).
        if (server.databaseLimit === NO_DATABASES) {
          throw new AppException(DatabaseError.LIMIT_REACHED, { message: 'This server may not have databases (its database limit is none)' });
        }
        if (server.databaseLimit > 0 && count >= server.databaseLimit) {
          throw new AppException(DatabaseError.LIMIT_REACHED, {
            message: `This server has reached its database limit (${server.databaseLimit})`,
          });
        }
        if (await this.repo.existsOnServer(server.id, spec.database, manager)) {
          throw new AppException(DatabaseError.NAME_TAKEN);
        }
        const chosen = await this.takeHost(server, manager, options.hostId);
        const inserted = await this.repo.insertDatabase(
          { serverId: server.id, hostId: chosen.id, ...spec, maxConnections: chosen.maxUserConnections, status: 'ready' },
          manager,
        );
        await this.client.createDatabase(chosen, spec, password, chosen.maxUserConnections);
        madeOn = chosen;
        await this.activity(server, actor, 'server.database.create', { database: spec.database, remote: spec.remote }, manager);
        return { row: inserted, host: chosen };
      });
      return { data: toCreatedServerDatabase(row, host), meta: { password }, record: { ...row, host } };
    } catch (e) {
      if (madeOn) {
        // The host has it but the panel's commit failed: take it back off the host.
        await this.client.dropDatabase(madeOn, spec).catch((dropError: Error) =>
          this.logger.error({ hostId: madeOn?.id, database: spec.database, error: dropError.message }, 'could not drop a database whose creation was rolled back'),
        );
      }
      throw e;
    }
  }

  /** The old password stops working at once; the new one is in `meta`, this once. */
  async rotatePassword(access: ServerAccess, id: string, actor: Actor): Promise<{ data: ServerDatabaseResponseDto; meta: DatabasePasswordMetaDto }> {
    const record = await this.require(access, id);
    if (record.status === 'revoking') {
      throw new AppException(DatabaseError.REVOKING);
    }
    const password = generateDatabasePassword();
    await this.client.rotatePassword(record.host, specOf(record), password);
    const updated = await this.repo.transaction(async (manager) => {
      const row = await this.repo.touch(record.id, manager);
      if (!row) {
        throw new AppException(DatabaseError.NOT_FOUND);
      }
      await this.activity(access.server, actor, 'server.database.rotate-password', { database: record.database }, manager);
      return row;
    });
    return { data: toServerDatabaseResponse(updated, record.host), meta: { password } };
  }

  /** Drops the database, its user and all data on the host, then the record; a host failure keeps the record. */
  async delete(access: ServerAccess, id: string, actor: Actor): Promise<void> {
    const record = await this.require(access, id);
    await this.revoke(record, false, (manager) =>
      this.activity(access.server, actor, 'server.database.delete', { database: record.database }, manager),
    );
  }

  /** Server deletion's step: every database of the server goes from its host; `force` goes on past host failures. */
  async deleteAllOf(server: ServerRow, force: boolean): Promise<void> {
    for (const record of await this.repo.allOfServer(server.id)) {
      await this.revoke(record, force);
    }
  }

  /**
   * `revoking` while the host works; the record goes once the host has dropped
   * everything. A host failure puts it back to `ready` and the error is returned, unless `force`.
   */
  private async revoke(record: LoadedDatabase, force: boolean, also?: (manager: EntityManager) => Promise<void>): Promise<void> {
    if (!(await this.repo.claimForDelete(record.id, STALE_REVOKING_SECONDS)) && !force) {
      throw new AppException(DatabaseError.REVOKING);
    }
    try {
      await this.client.dropDatabase(record.host, specOf(record));
    } catch (e) {
      if (!force) {
        await this.repo.setStatus(record.id, 'ready');
        throw e;
      }
      this.logger.warn(
        { databaseId: record.id, hostId: record.hostId, database: record.database, username: record.username, error: (e as Error).message },
        'forced server deletion: the database could not be dropped on its host and is left there',
      );
    }
    await this.repo.transaction(async (manager) => {
      await this.repo.deleteDatabase(record.id, manager);
      await also?.(manager);
    });
  }

  /** The best host with room, locked so that its limit holds against concurrent creations. */
  private async takeHost(server: ServerRow, manager: EntityManager, hostId?: string): Promise<DatabaseHostEntity> {
    const ranked = rankHosts(await this.repo.hostsFor(server.nodeId, manager), server.nodeId);
    const candidates = hostId === undefined ? ranked : ranked.filter(({ host }) => host.id === hostId);
    for (const { host } of candidates) {
      const locked = await this.repo.lockHost(host.id, manager);
      const databases = locked ? ((await this.repo.countByHost([locked.id], manager)).get(locked.id) ?? 0) : 0;
      if (locked && hasRoom({ host: locked, databases })) {
        return locked;
      }
    }
    if (hostId !== undefined) {
      throw new AppException(CommonError.VALIDATION_FAILED, {
        details: [{ field: 'host', message: "the database host does not exist, does not serve this server's node, or is full" }],
      });
    }
    throw new AppException(DatabaseError.NO_HOST);
  }

  private async require(access: ServerAccess, id: string): Promise<LoadedDatabase> {
    const record = await this.repo.findOfServer(access.server.id, id);
    if (!record) {
      throw new AppException(DatabaseError.NOT_FOUND);
    }
    return record;
  }

  private async activity(server: ServerRow, actor: Actor, event: string, metadata: Record<string, unknown>, manager: EntityManager): Promise<void> {
    await this.activityLog.byUser(server.id, actor, event, metadata, { manager });
  }
}
