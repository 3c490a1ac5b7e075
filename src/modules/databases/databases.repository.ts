import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { DatabaseHostEntity } from 'src/modules/databases/database-host.entity';
import { DatabaseError } from 'src/modules/databases/databases.errors';
import { ServerDatabaseEntity } from 'src/modules/databases/server-database.entity';
import { violations } from 'src/database/pg-errors';

/** A host with the number of databases it holds. */
export interface HostWithCount {
  host: DatabaseHostEntity;
  databases: number;
}

/** A customer database with its host loaded. */
export type LoadedDatabase = ServerDatabaseEntity & Required<Pick<ServerDatabaseEntity, 'host'>>;

/** Database hosts and the customer databases on them. */
@Injectable()
export class DatabasesRepository {
  constructor(
    @InjectRepository(DatabaseHostEntity) private readonly hosts: Repository<DatabaseHostEntity>,
    @InjectRepository(ServerDatabaseEntity) private readonly databases: Repository<ServerDatabaseEntity>,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.hosts.manager.transaction(fn);
  }

  findHostPage(skip: number, take: number): Promise<[DatabaseHostEntity[], number]> {
    return this.hosts.findAndCount({ order: { id: 'ASC' }, skip, take });
  }

  findHost(id: string, manager: EntityManager = this.hosts.manager): Promise<DatabaseHostEntity | null> {
    return manager.getRepository(DatabaseHostEntity).findOneBy({ id });
  }

  /** The host row, locked until the transaction ends (capacity checks, updates). */
  lockHost(id: string, manager: EntityManager): Promise<DatabaseHostEntity | null> {
    return manager.getRepository(DatabaseHostEntity).createQueryBuilder('h').setLock('pessimistic_write').where({ id }).getOne();
  }

  saveHost(host: Partial<DatabaseHostEntity>, manager: EntityManager): Promise<DatabaseHostEntity> {
    const repo = manager.getRepository(DatabaseHostEntity);
    return repo.save(repo.create(host)).catch(violations({ UQ_database_host_name: DatabaseError.HOST_NAME_TAKEN }));
  }

  async deleteHost(id: string, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(DatabaseHostEntity)
      .delete({ id })
      .catch(violations({ FK_server_database_host: DatabaseError.HOST_HAS_DATABASES }));
  }

  /** How many databases each of these hosts holds (hosts without any are absent). */
  async countByHost(hostIds: string[], manager: EntityManager = this.hosts.manager): Promise<Map<string, number>> {
    if (hostIds.length === 0) {
      return new Map();
    }
    const rows: { hostId: string; n: number }[] = await manager
      .getRepository(ServerDatabaseEntity)
      .createQueryBuilder('d')
      .select('d.host_id', 'hostId')
      .addSelect('count(*)::int', 'n')
      .where({ hostId: In(hostIds) })
      .groupBy('d.host_id')
      .getRawMany();
    return new Map(rows.map((r): [string, number] => [r.hostId, Number(r.n)]));
  }

  /** Hosts linked to the node and global hosts, each with its database count. */
  async hostsFor(nodeId: string, manager: EntityManager = this.hosts.manager): Promise<HostWithCount[]> {
    const hosts = await manager
      .getRepository(DatabaseHostEntity)
      .createQueryBuilder('h')
      .where('h.node_id = :nodeId OR h.node_id IS NULL', { nodeId })
      .orderBy('h.id', 'ASC')
      .getMany();
    const counts = await this.countByHost(
      hosts.map((h) => h.id),
      manager,
    );
    return hosts.map((host) => ({ host, databases: counts.get(host.id) ?? 0 }));
  }

  countOfServer(serverId: string, manager: EntityManager = this.databases.manager): Promise<number> {
    return manager.getRepository(ServerDatabaseEntity).countBy({ serverId });
  }

  existsOnServer(serverId: string, database: string, manager: EntityManager): Promise<boolean> {
    return manager.getRepository(ServerDatabaseEntity).existsBy({ serverId, database });
  }

  findPageOfServer(serverId: string, skip: number, take: number): Promise<[LoadedDatabase[], number]> {
    return this.databases.findAndCount({ where: { serverId }, relations: { host: true }, order: { id: 'ASC' }, skip, take }) as Promise<
      [LoadedDatabase[], number]
    >;
  }

  allOfServer(serverId: string): Promise<LoadedDatabase[]> {
    return this.databases.find({ where: { serverId }, relations: { host: true }, order: { id: 'ASC' } }) as Promise<LoadedDatabase[]>;
  }

  /** The databases of these servers, with their hosts, in one query. */
  allOfServers(serverIds: string[]): Promise<LoadedDatabase[]> {
    if (serverIds.length === 0) {
      return Promise.resolve([]);
    }
    return this.databases.find({ where: { serverId: In(serverIds) }, relations: { host: true }, order: { id: 'ASC' } }) as Promise<LoadedDatabase[]>;
  }

  findOfServer(serverId: string, id: string): Promise<LoadedDatabase | null> {
    return this.databases.findOne({ where: { serverId, id }, relations: { host: true } }) as Promise<LoadedDatabase | null>;
  }

  insertDatabase(row: Partial<ServerDatabaseEntity>, manager: EntityManager): Promise<ServerDatabaseEntity> {
    const repo = manager.getRepository(ServerDatabaseEntity);
    return repo.save(repo.create(row)).catch(violations({ UQ_server_database_server_database: DatabaseError.NAME_TAKEN }));
  }

  /**
   * Marks the database `revoking` for a delete. False when another delete holds it; a `revoking`
   * mark older than `staleAfterSeconds` (a panel that stopped mid-delete) may be taken over.
   */
  async claimForDelete(id: string, staleAfterSeconds: number): Promise<boolean> {
    const result = await this.databases
      .createQueryBuilder()
      .update(ServerDatabaseEntity)
      .set({ status: 'revoking' })
      .where('id = :id', { id })
      .andWhere(`(status = 'ready' OR updated_at < now() - make_interval(secs => :stale))`, { stale: staleAfterSeconds })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async setStatus(id: string, status: ServerDatabaseEntity['status']): Promise<void> {
    await this.databases.update({ id }, { status });
  }

  /** Moves updatedAt to now (a rotation changed the record's credentials); null when the record is gone. */
  async touch(id: string, manager: EntityManager): Promise<ServerDatabaseEntity | null> {
    const repo = manager.getRepository(ServerDatabaseEntity);
    await repo.createQueryBuilder().update().set({ updatedAt: () => 'now()' }).where({ id }).execute();
    return repo.findOneBy({ id });
  }

  async deleteDatabase(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerDatabaseEntity).delete({ id });
  }
}
