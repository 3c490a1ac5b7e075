import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { EggVariableEntity } from 'src/modules/eggs/egg-variable.entity';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { ListedServer, LoadedServer, ServerEntity } from 'src/modules/servers/server.entity';
import { UserEntity } from 'src/modules/users/user.entity';

/** An allocation as the cache keeps it: plain values, its date as epoch milliseconds. */
type AllocationSnapshot = Readonly<Omit<AllocationEntity, 'createdAt' | 'node' | 'server'> & { createdAt: number }>;

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    allocations: readonly AllocationSnapshot[];
  }
}

const allocationSnapshot = (a: AllocationEntity): AllocationSnapshot => ({
  id: a.id,
  nodeId: a.nodeId,
  ip: a.ip,
  port: a.port,
  alias: a.alias,
  notes: a.notes,
  serverId: a.serverId,
  createdAt: a.createdAt.getTime(),
});

/** The caller's own row, built from the snapshot. */
const allocationFrom = (a: AllocationSnapshot): AllocationEntity => Object.assign(new AllocationEntity(), { ...a, createdAt: new Date(a.createdAt) });

const allocationTags = (serverId: string, rows: readonly AllocationSnapshot[]): string[] => [
  `server:${serverId}`,
  `allocations:${serverId}`,
  ...rows.map((a) => `allocation:${a.id}`),
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class ServersRepository {
  constructor(
    @InjectRepository(ServerEntity) private readonly servers: Repository<ServerEntity>,
    private readonly caches: HotCaches,
  ) {}

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

  /** By full uuid or by the 8-character identifier (ServerContextResolver caches what it builds from it). */
  findByRef(ref: string): Promise<LoadedServer | null> {
    const key = ref.toLowerCase();
    const where = UUID.test(key) ? { uuid: key } : { identifier: key };
    return this.loaded(this.servers.manager).where(where).getOne() as Promise<LoadedServer | null>;
  }

  findById(id: string, manager: EntityManager = this.servers.manager): Promise<LoadedServer | null> {
    return this.loaded(manager).where({ id }).getOne() as Promise<LoadedServer | null>;
  }

  /** Servers by id, as list pages show them. */
  async findListedByIds(ids: string[]): Promise<ListedServer[]> {
    return ids.length === 0 ? [] : ((await this.listed().where({ id: In(ids) }).getMany()) as ListedServer[]);
  }

  /** One page of servers as list pages show them, in id order, and how many there are in all. */
  findListPage(where: { ownerId?: string }, skip: number, take: number): Promise<[ListedServer[], number]> {
    // Only many-to-one joins, so the page can be cut in SQL (skip/take would first select distinct ids).
    return this.listed().where(where).offset(skip).limit(take).getManyAndCount() as Promise<[ListedServer[], number]>;
  }

  /**
   * One page of the servers a user owns or is a subuser of, in id order, and how many there are:
   * one query, so a page never splits or repeats a server across the two kinds.
   */
  findVisibleListPage(userId: string, skip: number, take: number): Promise<[ListedServer[], number]> {
    return this.listed()
      .where('(server.owner_id = :userId OR EXISTS (SELECT 1 FROM subuser su WHERE su.server_id = server.id AND su.user_id = :userId))', { userId })
      .offset(skip)
      .limit(take)
      .getManyAndCount() as Promise<[ListedServer[], number]>;
  }

  private listed() {
    return this.servers
      .createQueryBuilder('server')
      .leftJoin('server.node', 'node')
      .addSelect(['node.id', 'node.name'])
      .leftJoin('server.owner', 'owner')
      .addSelect(['owner.id', 'owner.username'])
      .orderBy('server.id', 'ASC');
  }

  findByUuidOnNode(uuid: string, nodeId: string): Promise<LoadedServer | null> {
    return this.loaded(this.servers.manager).where({ uuid, nodeId }).getOne() as Promise<LoadedServer | null>;
  }

  findByUuidsOnNode(nodeId: string, uuids: string[]): Promise<ServerEntity[]> {
    return uuids.length === 0 ? Promise.resolve([]) : this.servers.findBy({ nodeId, uuid: In(uuids) });
  }

  /** After a daemon restart nothing is installing or restoring there any more. */
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

  async update(id: string, changes: Partial<ServerEntity>, manager: EntityManager = this.servers.manager): Promise<void> {
    await manager.getRepository(ServerEntity).update({ id }, changes);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerEntity).delete({ id });
  }

  /** A server's allocations; without a manager (outside a transaction) served from HotCaches when warm. */
  async allocationsOf(serverId: string, manager?: EntityManager): Promise<AllocationEntity[]> {
    const read = (m: EntityManager) => m.getRepository(AllocationEntity).find({ where: { serverId }, order: { ip: 'ASC', port: 'ASC' } });
    if (manager) {
      return read(manager);
    }
    const cached = await this.caches.allocations.getOrLoad(
      serverId,
      async () => (await read(this.servers.manager)).map(allocationSnapshot),
      (rows) => allocationTags(serverId, rows),
    );
    return (cached ?? []).map(allocationFrom);
  }

  /** The allocations of several servers in one query (list pages), by server id. */
  async allocationsByServer(serverIds: string[]): Promise<Map<string, AllocationEntity[]>> {
    const rows =
      serverIds.length === 0
        ? []
        : await this.servers.manager.getRepository(AllocationEntity).find({ where: { serverId: In(serverIds) }, order: { ip: 'ASC', port: 'ASC' } });
    const byServer = new Map<string, AllocationEntity[]>(serverIds.map((id) => [id, []]));
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
}
