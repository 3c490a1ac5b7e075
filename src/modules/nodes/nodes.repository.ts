import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import { allocationFrom, AllocationSnapshot, allocationSnapshot, allocationTags } from 'src/modules/nodes/allocation-snapshot';
import type { AllocationFilter } from 'src/modules/nodes/dto/allocation.dto';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { queryPrepared } from 'src/database/prepared-query';
import { violations } from 'src/database/pg-errors';
import { pageWithTotal } from 'src/database/page-with-total';
import { applyListQuery, containsPattern, ListQuery } from 'src/database/like';
import { Keyset, keysetClause } from 'src/common/http/cursor';

/** A server's allocation as its lists and its daemon configuration read it. */
export type AllocationOfServer = Pick<AllocationEntity, 'id' | 'ip' | 'port' | 'alias' | 'notes'> & { serverId: string };

const readAllocations = (m: EntityManager, serverId: string): Promise<AllocationEntity[]> =>
  m.getRepository(AllocationEntity).find({ where: { serverId }, order: { ip: 'ASC', port: 'ASC' } });

/** Locations, nodes and allocations. */
/** Keeps the query to these nodes (an administrator role's); null keeps every node. */
const withinNodes = <T extends ObjectLiteral>(query: SelectQueryBuilder<T>, only: ReadonlySet<string> | null): SelectQueryBuilder<T> =>
  only === null ? query : only.size === 0 ? query.andWhere('FALSE') : query.andWhere('node.id IN (:...onlyNodes)', { onlyNodes: [...only] });

@Injectable()
export class NodesRepository {
  constructor(
    @InjectRepository(NodeEntity) private readonly nodes: Repository<NodeEntity>,
    private readonly caches: HotCaches,
  ) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.nodes.manager.transaction(fn);
  }

  findLocation(id: string, manager: EntityManager = this.nodes.manager): Promise<LocationEntity | null> {
    return manager.getRepository(LocationEntity).findOneBy({ id });
  }

  async findLocations(ids: string[]): Promise<Map<string, LocationEntity>> {
    const rows = ids.length === 0 ? [] : await this.nodes.manager.getRepository(LocationEntity).findBy({ id: In(ids) });
    return new Map(rows.map((l): [string, LocationEntity] => [l.id, l]));
  }

  findLocationPage(skip: number, take: number, list: ListQuery = {}): Promise<[LocationEntity[], number]> {
    const query = this.nodes.manager.getRepository(LocationEntity).createQueryBuilder('location').orderBy('location.id', 'ASC');
    return pageWithTotal(applyListQuery(query, list, { id: 'location.id', short: 'location.short', long: 'location.long' }, 'location.id'), skip, take);
  }

  saveLocation(location: Partial<LocationEntity>, manager: EntityManager = this.nodes.manager): Promise<LocationEntity> {
    const repo = manager.getRepository(LocationEntity);
    return repo.save(repo.create(location)).catch(violations({ UQ_location_short: NodeError.LOCATION_SHORT_TAKEN }));
  }

  countNodesIn(locationId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(NodeEntity).countBy({ locationId });
  }

  countNodesWithBackupHost(backupHostId: string, manager: EntityManager = this.nodes.manager): Promise<number> {
    return manager.getRepository(NodeEntity).countBy({ backupHostId });
  }

  async deleteLocation(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(LocationEntity).delete({ id });
  }

  findNode(id: string, manager: EntityManager = this.nodes.manager): Promise<NodeEntity | null> {
    return manager.getRepository(NodeEntity).findOneBy({ id });
  }

  /** Which of `ids` are nodes, in one query. */
  async existingIds(ids: readonly string[], manager: EntityManager = this.nodes.manager): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const rows = await manager.getRepository(NodeEntity).find({ select: { id: true }, where: { id: In([...ids]) } });
    return new Set(rows.map((n) => String(n.id)));
  }

  /** The node's row, locked until the transaction ends (a transfer's room check and its reservation are one step per target node). */
  lockNode(id: string, manager: EntityManager): Promise<NodeEntity | null> {
    return manager.getRepository(NodeEntity).createQueryBuilder('node').setLock('pessimistic_write').where({ id }).getOne();
  }

  /** Every node, by id (a drain's placement weighs them all). */
  findAllNodes(): Promise<NodeEntity[]> {
    return this.nodes.find({ order: { id: 'ASC' } });
  }

  findNodeByTokenIdentifier(tokenIdentifier: string): Promise<NodeEntity | null> {
    return this.nodes.findOneBy({ tokenIdentifier });
  }

  countNodes(): Promise<number> {
    return this.nodes.count();
  }

  countLocations(): Promise<number> {
    return this.nodes.manager.getRepository(LocationEntity).count();
  }

  /** The first `take` nodes by id, for the overview's health list. */
  findFirstNodes(take: number): Promise<NodeEntity[]> {
    return this.nodes.find({ order: { id: 'ASC' }, take });
  }

  async touchNode(id: string, at: Date): Promise<void> {
    await this.nodes
      .createQueryBuilder()
      .update(NodeEntity)
      .set({ lastSeenAt: at, daemonContactedAt: () => 'COALESCE(daemon_contacted_at, :at)' })
      .where('id = :id', { id })
      .setParameter('at', at)
      .execute();
  }

  /** The first contact only: a later one leaves the date alone. */
  async markDaemonContacted(id: string, at: Date): Promise<void> {
    await this.nodes.createQueryBuilder().update(NodeEntity).set({ daemonContactedAt: at }).where('id = :id AND daemon_contacted_at IS NULL', { id }).execute();
  }

  findNodePage(skip: number, take: number, list: ListQuery = {}, only: ReadonlySet<string> | null = null): Promise<[NodeEntity[], number]> {
    const query = withinNodes(this.nodes.createQueryBuilder('node').orderBy('node.id', 'ASC'), only);
    const columns = { id: 'node.id', uuid: 'node.uuid::text', name: 'node.name', fqdn: 'node.fqdn', tokenIdentifier: 'node.token_identifier', memory: 'node.memory', disk: 'node.disk' };
    return pageWithTotal(applyListQuery(query, list, columns, 'node.id'), skip, take);
  }

  /** A cursor page (src/common/http/cursor.ts): up to `take` nodes past `keyset` in id order. */
  findNodeKeysetPage(keyset: Keyset | null, take: number, only: ReadonlySet<string> | null = null): Promise<NodeEntity[]> {
    const clause = keysetClause([{ column: 'node.id', cast: 'bigint' }], keyset, 'ASC');
    const query = withinNodes(this.nodes.createQueryBuilder('node').orderBy('node.id', clause.order).limit(take), only);
    if (clause.where) {
      query.andWhere(clause.where, clause.params);
    }
    return query.getMany();
  }

  /** Every node's daemon address (`scheme://fqdn:port`), for the browser's content-security policy. */
  async findNodeBaseUrls(): Promise<{ id: string; baseUrl: string }[]> {
    const rows = await this.nodes.createQueryBuilder('node').select('node.id', 'id').addSelect('node.base_url', 'baseUrl').getRawMany<{ id: unknown; baseUrl: string }>();
    return rows.map((r) => ({ id: String(r.id), baseUrl: r.baseUrl }));
  }

  /** At most two nodes: enough to tell "none", "exactly one" and "several" apart. */
  findUpToTwoNodes(): Promise<NodeEntity[]> {
    return this.nodes.find({ order: { id: 'ASC' }, take: 2 });
  }

  saveNode(node: Partial<NodeEntity>, manager: EntityManager = this.nodes.manager): Promise<NodeEntity> {
    const repo = manager.getRepository(NodeEntity);
    return repo.save(repo.create(node)).catch(violations({ UQ_node_base_url: NodeError.BASE_URL_TAKEN, FK_node_backup_host: NodeError.BACKUP_HOST_UNKNOWN }));
  }

  /** The foreign key refuses while servers are on the node. */
  async deleteNode(id: string, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(NodeEntity)
      .delete({ id })
      .catch(violations({ FK_server_node: NodeError.HAS_SERVERS }));
  }

  findAllocationPage(nodeId: string, skip: number, take: number, filter: AllocationFilter = {}): Promise<[AllocationEntity[], number]> {
    const query = this.nodes.manager
      .getRepository(AllocationEntity)
      .createQueryBuilder('a')
      .where('a.node_id = :nodeId', { nodeId })
      .orderBy('a.ip', 'ASC')
      .addOrderBy('a.port', 'ASC');
    if (filter.ip !== undefined) {
      query.andWhere('a.ip = :ip', { ip: filter.ip });
    }
    if (filter.port !== undefined) {
      query.andWhere('a.port = :port', { port: filter.port });
    }
    if (filter.aliasContains !== undefined) {
      query.andWhere('a.alias ILIKE :alias', { alias: containsPattern(filter.aliasContains) });
    }
    if (filter.server === null) {
      query.andWhere('a.server_id IS NULL AND a.reserved_by_transfer_id IS NULL');
    } else if (filter.server !== undefined) {
      query.andWhere('a.server_id = :serverId', { serverId: filter.server });
    }
    return pageWithTotal(query, skip, take);
  }

  /** The allocations of these servers in one prepared query, as raw rows with only the columns a list shows. */
  findAllocationsOfServers(serverIds: string[]): Promise<AllocationOfServer[]> {
    if (serverIds.length === 0) {
      return Promise.resolve([]);
    }
    return queryPrepared<AllocationOfServer>(
      this.nodes.manager,
      'allocations-of-servers',
      'SELECT id, ip, port, alias, notes, server_id AS "serverId" FROM allocation WHERE server_id = ANY($1::bigint[]) ORDER BY ip, port',
      [serverIds],
    );
  }

  findAllocation(nodeId: string, id: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return manager.getRepository(AllocationEntity).findOneBy({ nodeId, id });
  }

  findTakenPorts(nodeId: string, ip: string, ports: number[], manager: EntityManager): Promise<AllocationEntity[]> {
    return manager.getRepository(AllocationEntity).findBy({ nodeId, ip, port: In(ports) });
  }

  async insertAllocations(rows: Partial<AllocationEntity>[], manager: EntityManager): Promise<AllocationEntity[]> {
    const repo = manager.getRepository(AllocationEntity);
    return repo.save(rows.map((r) => repo.create(r)), { chunk: 500 }).catch(violations({ UQ_allocation_node_ip_port: NodeError.ALLOCATION_EXISTS }));
  }

  async deleteAllocation(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).delete({ id });
  }

  // A server's allocations, for the servers module (AllocationsService).

  /** A server's allocations; without a manager (outside a transaction) served from HotCaches when warm. */
  async allocationsOf(serverId: string, manager?: EntityManager): Promise<AllocationEntity[]> {
    if (manager) {
      return readAllocations(manager, serverId);
    }
    return (await this.allocationSnapshotsOf(serverId)).map(allocationFrom);
  }

  /** A server's allocations as the cache shares them (never to be changed): for answers built per request. */
  async allocationSnapshotsOf(serverId: string): Promise<readonly AllocationSnapshot[]> {
    const cached = await this.caches.allocations.getOrLoad(
      serverId,
      async () => (await readAllocations(this.nodes.manager, serverId)).map(allocationSnapshot),
      (rows) => allocationTags(serverId, rows),
    );
    return cached ?? [];
  }

  /** Locks and returns the free allocations with these ids on the node. */
  lockFreeAllocations(nodeId: string, ids: string[], manager: EntityManager): Promise<AllocationEntity[]> {
    return manager
      .getRepository(AllocationEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where({ nodeId, id: In(ids), serverId: IsNull(), reservedByTransferId: IsNull() })
      .getMany();
  }

  /**
   * A free allocation for a deployment: on the first of `nodeIds` (in their order) that has one, with a
   * port in one of `portRanges` when given, and with `dedicatedIp` on an address no server uses yet.
   */
  async findDeployAllocation(nodeIds: string[], portRanges: [number, number][], dedicatedIp: boolean): Promise<{ id: string; nodeId: string } | null> {
    if (nodeIds.length === 0) {
      return null;
    }
    const params: unknown[] = [nodeIds];
    const ports = portRanges.map(([from, to]) => `(a.port BETWEEN $${params.push(from)} AND $${params.push(to)})`);
    const rows = await this.nodes.manager.query<{ id: string; node_id: string }[]>(
      `SELECT a.id, a.node_id FROM allocation a
       WHERE a.server_id IS NULL AND a.reserved_by_transfer_id IS NULL AND a.node_id = ANY($1::bigint[])
       ${ports.length > 0 ? `AND (${ports.join(' OR ')})` : ''}
       ${dedicatedIp ? 'AND NOT EXISTS (SELECT 1 FROM allocation b WHERE b.node_id = a.node_id AND b.ip = a.ip AND b.server_id IS NOT NULL)' : ''}
       ORDER BY array_position($1::bigint[], a.node_id), a.id LIMIT 1`,
      params,
    );
    return rows.length > 0 ? { id: String(rows[0].id), nodeId: String(rows[0].node_id) } : null;
  }

  /** The node an allocation belongs to, or null when there is no such allocation. */
  async nodeOfAllocation(id: string): Promise<string | null> {
    const row = await this.nodes.manager.getRepository(AllocationEntity).findOne({ where: { id }, select: { id: true, nodeId: true } });
    return row ? row.nodeId : null;
  }

  /** The lowest free allocation on a node, locked so two creations cannot take it together. */
  lockFirstFreeAllocation(nodeId: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return manager
      .getRepository(AllocationEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where({ nodeId, serverId: IsNull(), reservedByTransferId: IsNull() })
      .orderBy('a.id', 'ASC')
      .getOne();
  }

  /** One of a server's allocations, locked until the transaction ends; null when it is not the server's. */
  lockAllocationOf(serverId: string, id: string, manager: EntityManager): Promise<AllocationEntity | null> {
    return manager.getRepository(AllocationEntity).createQueryBuilder('a').setLock('pessimistic_write').where({ id, serverId }).getOne();
  }

  /** The lowest free allocation on a node, on `ip` when one is free there, locked so two requests cannot take it together. */
  async lockFreeAllocationPreferring(nodeId: string, ip: string | null, manager: EntityManager): Promise<AllocationEntity | null> {
    const free = () =>
      manager.getRepository(AllocationEntity).createQueryBuilder('a').setLock('pessimistic_write').setOnLocked('skip_locked').where({ nodeId, serverId: IsNull(), reservedByTransferId: IsNull() }).orderBy('a.port', 'ASC').addOrderBy('a.id', 'ASC');
    return (ip === null ? null : await free().andWhere({ ip }).getOne()) ?? (await free().getOne());
  }

  /** Gives an allocation back to the node: no server, no notes. */
  async freeAllocation(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).update({ id }, { serverId: null, notes: null });
  }

  async setAllocationNotes(id: string, notes: string | null, manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).update({ id }, { notes });
  }

  async assignAllocations(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).update({ id: In(ids) }, { serverId });
  }

  /** Holds these allocations for a transfer (they were locked free by the caller). */
  async reserveAllocations(transferId: string, ids: string[], manager: EntityManager): Promise<void> {
    if (ids.length > 0) {
      await manager.getRepository(AllocationEntity).update({ id: In(ids), serverId: IsNull() }, { reservedByTransferId: transferId });
    }
  }

  /** Lets go of what a transfer held: the allocations are free again. */
  async unreserveAllocations(transferId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(AllocationEntity).update({ reservedByTransferId: transferId }, { reservedByTransferId: null });
  }

  /**
   * A finished transfer: the server gives up `oldIds` and takes what the transfer held, in one step.
   * Answers how many of the held allocations it took.
   */
  async swapAllocations(serverId: string, transferId: string, oldIds: string[], manager: EntityManager): Promise<number> {
    const repo = manager.getRepository(AllocationEntity);
    if (oldIds.length > 0) {
      await repo.update({ serverId, id: In(oldIds) }, { serverId: null, notes: null });
    }
    const taken = await repo.update({ reservedByTransferId: transferId, serverId: IsNull() }, { serverId, reservedByTransferId: null });
    return taken.affected ?? 0;
  }

  /** The allocations a transfer holds. */
  findReservedAllocations(transferId: string, manager: EntityManager = this.nodes.manager): Promise<AllocationEntity[]> {
    return manager.getRepository(AllocationEntity).find({ where: { reservedByTransferId: transferId }, order: { id: 'ASC' } });
  }

  async releaseAllocations(serverId: string, ids: string[], manager: EntityManager): Promise<void> {
    if (ids.length > 0) {
      await manager.getRepository(AllocationEntity).update({ serverId, id: In(ids) }, { serverId: null });
    }
  }
}
