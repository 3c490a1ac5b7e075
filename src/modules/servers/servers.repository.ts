import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

export type LoadedServer = ServerEntity & Required<Pick<ServerEntity, 'node' | 'egg' | 'owner'>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class ServersRepository {
  constructor(@InjectRepository(ServerEntity) private readonly servers: Repository<ServerEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.servers.manager.transaction(fn);
  }

  /**
   * A server with its node, egg and owner in one query (findOne with relations would first select
   * the distinct id, then the row: two round trips on every server request).
   */
  private loaded(manager: EntityManager) {
    return manager
      .getRepository(ServerEntity)
      .createQueryBuilder('server')
      .leftJoinAndSelect('server.node', 'node')
      .leftJoinAndSelect('server.egg', 'egg')
      .leftJoinAndSelect('server.owner', 'owner');
  }

  /** By full uuid or by the 8-character identifier. */
  findByRef(ref: string, manager: EntityManager = this.servers.manager): Promise<LoadedServer | null> {
    const where = UUID.test(ref) ? { uuid: ref.toLowerCase() } : { identifier: ref.toLowerCase() };
    return this.loaded(manager).where(where).getOne() as Promise<LoadedServer | null>;
  }

  findById(id: string, manager: EntityManager = this.servers.manager): Promise<LoadedServer | null> {
    return this.loaded(manager).where({ id }).getOne() as Promise<LoadedServer | null>;
  }

  async findManyByIds(ids: string[]): Promise<LoadedServer[]> {
    if (ids.length === 0) {
      return [];
    }
    return (await this.servers.find({ where: { id: In(ids) }, relations: { node: true, egg: true, owner: true }, order: { id: 'ASC' } })) as LoadedServer[];
  }

  findByUuidOnNode(uuid: string, nodeId: string): Promise<LoadedServer | null> {
    return this.loaded(this.servers.manager).where({ uuid, nodeId }).getOne() as Promise<LoadedServer | null>;
  }

  findByUuidsOnNode(nodeId: string, uuids: string[]): Promise<ServerEntity[]> {
    return uuids.length === 0 ? Promise.resolve([]) : this.servers.findBy({ nodeId, uuid: In(uuids) });
  }

  /** After a daemon restart nothing is installing or restoring there any more (wings.md §5.11). */
  async resetStuckOnNode(nodeId: string, manager: EntityManager = this.servers.manager): Promise<void> {
    await manager.getRepository(ServerEntity).update({ nodeId, status: In(['installing', 'restoring_backup']) }, { status: null });
  }

  findRestoringOnNode(nodeId: string, manager: EntityManager = this.servers.manager): Promise<ServerEntity[]> {
    return manager.getRepository(ServerEntity).findBy({ nodeId, status: 'restoring_backup' });
  }

  async usersByUuid(uuids: string[]): Promise<Map<string, UserEntity>> {
    const users = uuids.length === 0 ? [] : await this.servers.manager.getRepository(UserEntity).findBy({ uuid: In(uuids) });
    return new Map(users.map((u): [string, UserEntity] => [u.uuid, u]));
  }

  findPage(where: { ownerId?: string; nodeId?: string }, skip: number, take: number): Promise<[LoadedServer[], number]> {
    return this.servers.findAndCount({
      where,
      relations: { node: true, egg: true, owner: true },
      order: { id: 'ASC' },
      skip,
      take,
    }) as Promise<[LoadedServer[], number]>;
  }

  insert(server: Partial<ServerEntity>, manager: EntityManager): Promise<ServerEntity> {
    const repo = manager.getRepository(ServerEntity);
    return repo.save(repo.create(server));
  }

  save(server: ServerEntity, manager: EntityManager = this.servers.manager): Promise<ServerEntity> {
    return manager.getRepository(ServerEntity).save(server);
  }

  async update(id: string, changes: Partial<ServerEntity>, manager: EntityManager = this.servers.manager): Promise<void> {
    await manager.getRepository(ServerEntity).update({ id }, changes);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerEntity).delete({ id });
  }

  allocationsOf(serverId: string, manager: EntityManager = this.servers.manager): Promise<AllocationEntity[]> {
    return manager.getRepository(AllocationEntity).find({ where: { serverId }, order: { ip: 'ASC', port: 'ASC' } });
  }

  /** The allocations of several servers in one query (list pages), by server id. */
  async allocationsByServer(serverIds: string[]): Promise<Map<string, AllocationEntity[]>> {
    const rows =
      serverIds.length === 0
        ? []
        : await this.servers.manager.getRepository(AllocationEntity).find({ where: { serverId: In(serverIds) }, order: { ip: 'ASC', port: 'ASC' } });
    const byServer = new Map<string, AllocationEntity[]>(serverIds.map((id) => [String(id), []]));
    for (const row of rows) {
      byServer.get(String(row.serverId))?.push(row);
    }
    return byServer;
  }

  /** Locks and returns the free allocations with these ids on the node. */
  lockFreeAllocations(nodeId: string, ids: string[], manager: EntityManager): Promise<AllocationEntity[]> {
    return manager
      .getRepository(AllocationEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where({ nodeId, id: In(ids), serverId: IsNull() })
      .getMany();
  }

  /** The lowest free allocation on a node, locked so two creations cannot take it together. */
  lockFirstFreeAllocation(nodeId: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return manager
      .getRepository(AllocationEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where({ nodeId, serverId: IsNull() })
      .orderBy('a.id', 'ASC')
      .getOne();
  }

  async assignAllocations(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).update({ id: In(ids) }, { serverId });
  }

  async releaseAllocations(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    if (ids.length > 0) {
      await manager.getRepository(AllocationEntity).update({ serverId, id: In(ids) }, { serverId: null });
    }
  }

  variablesOf(eggId: string, manager: EntityManager = this.servers.manager): Promise<EggVariableEntity[]> {
    return manager.getRepository(EggVariableEntity).find({ where: { eggId }, order: { position: 'ASC' } });
  }

  variablesOfEggs(eggIds: string[]): Promise<EggVariableEntity[]> {
    return eggIds.length === 0 ? Promise.resolve([]) : this.servers.manager.getRepository(EggVariableEntity).find({ where: { eggId: In(eggIds) }, order: { position: 'ASC' } });
  }

  serverValuesOfServers(serverIds: string[]): Promise<ServerVariableEntity[]> {
    return serverIds.length === 0 ? Promise.resolve([]) : this.servers.manager.getRepository(ServerVariableEntity).findBy({ serverId: In(serverIds) });
  }

  serverValuesOf(serverId: string, manager: EntityManager = this.servers.manager): Promise<ServerVariableEntity[]> {
    return manager.getRepository(ServerVariableEntity).findBy({ serverId });
  }

  async saveServerValues(rows: Partial<ServerVariableEntity>[], manager: EntityManager): Promise<void> {
    if (rows.length > 0) {
      await manager.getRepository(ServerVariableEntity).upsert(rows, ['serverId', 'variableId']);
    }
  }

  async recordActivity(entry: Partial<ServerActivityEntity>, manager: EntityManager = this.servers.manager): Promise<void> {
    const repo = manager.getRepository(ServerActivityEntity);
    await repo.save(repo.create(entry));
  }

  latestActivity(serverId: string, event: string, manager: EntityManager = this.servers.manager): Promise<ServerActivityEntity | null> {
    return manager.getRepository(ServerActivityEntity).findOne({ where: { serverId, event }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  activityPage(serverId: string, skip: number, take: number): Promise<[ServerActivityEntity[], number]> {
    return this.servers.manager
      .getRepository(ServerActivityEntity)
      .findAndCount({ where: { serverId }, order: { createdAt: 'DESC', id: 'DESC' }, skip, take });
  }
}
