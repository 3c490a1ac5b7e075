import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AllocationEntity } from 'src/modules/nodes/allocation.entity';
import type { AllocationFilter } from 'src/modules/nodes/dto/allocation.dto';
import { LocationEntity } from 'src/modules/nodes/location.entity';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodeError } from 'src/modules/nodes/nodes.errors';
import { violations } from 'src/database/pg-errors';
import { applyListQuery, containsPattern, ListQuery } from 'src/database/like';

/** Locations, nodes and allocations. */
@Injectable()
export class NodesRepository {
  constructor(@InjectRepository(NodeEntity) private readonly nodes: Repository<NodeEntity>) {}

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
    const query = this.nodes.manager.getRepository(LocationEntity).createQueryBuilder('location').orderBy('location.id', 'ASC').skip(skip).take(take);
    return applyListQuery(query, list, { id: 'location.id', short: 'location.short', long: 'location.long' }, 'location.id').getManyAndCount();
  }

  saveLocation(location: Partial<LocationEntity>, manager: EntityManager = this.nodes.manager): Promise<LocationEntity> {
    const repo = manager.getRepository(LocationEntity);
    return repo.save(repo.create(location)).catch(violations({ UQ_location_short: NodeError.LOCATION_SHORT_TAKEN }));
  }

  countNodesIn(locationId: string, manager: EntityManager): Promise<number> {
    return manager.getRepository(NodeEntity).countBy({ locationId });
  }

  async deleteLocation(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(LocationEntity).delete({ id });
  }

  findNode(id: string, manager: EntityManager = this.nodes.manager): Promise<NodeEntity | null> {
    return manager.getRepository(NodeEntity).findOneBy({ id });
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

  findNodePage(skip: number, take: number, list: ListQuery = {}): Promise<[NodeEntity[], number]> {
    const query = this.nodes.createQueryBuilder('node').orderBy('node.id', 'ASC').skip(skip).take(take);
    const columns = { id: 'node.id', uuid: 'node.uuid::text', name: 'node.name', fqdn: 'node.fqdn', tokenIdentifier: 'node.token_identifier', memory: 'node.memory', disk: 'node.disk' };
    return applyListQuery(query, list, columns, 'node.id').getManyAndCount();
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
    return repo.save(repo.create(node)).catch(violations({ UQ_node_base_url: NodeError.BASE_URL_TAKEN }));
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
      .addOrderBy('a.port', 'ASC')
      .skip(skip)
      .take(take);
    if (filter.ip !== undefined) {
      query.andWhere('a.ip = :ip', { ip: filter.ip });
    }
    if (filter.port !== undefined) {
      query.andWhere('a.port = :port', { port: filter.port });
    }
    if (filter.aliasContains !== undefined) {
      query.andWhere('LOWER(a.alias) LIKE :alias', { alias: containsPattern(filter.aliasContains.toLowerCase()) });
    }
    if (filter.server === null) {
      query.andWhere('a.server_id IS NULL');
    } else if (filter.server !== undefined) {
      query.andWhere('a.server_id = :serverId', { serverId: filter.server });
    }
    return query.getManyAndCount();
  }

  /** The allocations of these servers, in one query. */
  findAllocationsOfServers(serverIds: string[]): Promise<AllocationEntity[]> {
    if (serverIds.length === 0) {
      return Promise.resolve([]);
    }
    return this.nodes.manager.getRepository(AllocationEntity).find({ where: { serverId: In(serverIds) }, order: { ip: 'ASC', port: 'ASC' } });
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
}
