import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import { AppException } from 'src/common/errors/app.exception';
import { pgError, UNIQUE_VIOLATION } from 'src/database/pg-errors';
import { queryPrepared } from 'src/database/prepared-query';
import { deployableNodeIds } from 'src/modules/nodes/nodes.sql';
import { ServerError } from 'src/modules/servers/servers.errors';
import { ServerVariableEntity } from 'src/modules/servers/server-variable.entity';
import { LoadedServer, ServerEntity, ServerStatus } from 'src/modules/servers/server.entity';
import { ACTIVE_TRANSFER_SQL, ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';
import { serverCount } from 'src/modules/servers/server-list.sql';

/** A server's own value of one egg variable. */
export type ServerVariableValue = Pick<ServerVariableEntity, 'variableId' | 'value'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class ServersRepository {
  constructor(@InjectRepository(ServerEntity) private readonly servers: Repository<ServerEntity>) {}

  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.servers.manager.transaction(fn);
  }

  count(): Promise<number> {
    return this.servers.count();
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
      .leftJoinAndSelect('server.owner', 'owner')
      .leftJoinAndMapOne('server.activeTransfer', ServerTransferEntity, 'transfer', `transfer.server_id = server.id AND ${ACTIVE_TRANSFER_SQL}`);
  }

  /** These servers, each with its node, egg and owner, in one query. */
  findByIds(ids: string[]): Promise<LoadedServer[]> {
    return ids.length === 0 ? Promise.resolve([]) : (this.loaded(this.servers.manager).where({ id: In(ids) }).getMany() as Promise<LoadedServer[]>);
  }

  /** By full uuid or by the 8-character identifier (ServerContextResolver caches what it builds from it). */
  findByRef(ref: string, manager: EntityManager = this.servers.manager): Promise<LoadedServer | null> {
    const key = ref.toLowerCase();
    const where = UUID.test(key) ? { uuid: key } : { identifier: key };
    return this.loaded(manager).where(where).getOne() as Promise<LoadedServer | null>;
  }

  /** Several servers by their 8-character identifiers, in one query. */
  findByIdentifiers(identifiers: string[]): Promise<LoadedServer[]> {
    return identifiers.length === 0
      ? Promise.resolve([])
      : (this.loaded(this.servers.manager).where({ identifier: In(identifiers.map((i) => i.toLowerCase())) }).getMany() as Promise<LoadedServer[]>);
  }

  findById(id: string, manager: EntityManager = this.servers.manager): Promise<LoadedServer | null> {
    return this.loaded(manager).where({ id }).getOne() as Promise<LoadedServer | null>;
  }

  /** Per node that has servers: how many, and the memory and disk (MiB) their limits add up to (the totals the triggers keep per node). */
  async usageByNode(): Promise<{ nodeId: string; servers: number; memory: number; disk: number }[]> {
    const rows = await this.servers.manager.query<{ nodeId: string; servers: string; memory: string; disk: string }[]>(
      `SELECT t.node_id AS "nodeId", t.servers, t.memory, t.disk FROM server_totals t WHERE t.servers > 0 ORDER BY t.node_id`,
    );
    return rows.map((r) => ({ nodeId: String(r.nodeId), servers: Number(r.servers), memory: Number(r.memory), disk: Number(r.disk) }));
  }

  /** How many servers are in each state: suspended, else their status (installing...), else `ready`. */
  async countsByState(): Promise<{ state: string; servers: number }[]> {
    const rows = await this.servers.manager.query<{ state: string; servers: string }[]>(
      `SELECT CASE WHEN s.suspended THEN 'suspended' ELSE COALESCE(s.status, 'ready') END AS state, count(*) AS servers FROM server s GROUP BY 1 ORDER BY 1`,
    );
    return rows.map((r) => ({ state: r.state, servers: Number(r.servers) }));
  }

  findByUuidOnNode(uuid: string, nodeId: string): Promise<LoadedServer | null> {
    return this.loaded(this.servers.manager).where({ uuid, nodeId }).getOne() as Promise<LoadedServer | null>;
  }

  /** These servers of the node, each with its node, egg, owner and active transfer. */
  findLoadedByUuidsOnNode(nodeId: string, uuids: string[]): Promise<LoadedServer[]> {
    return uuids.length === 0 ? Promise.resolve([]) : (this.loaded(this.servers.manager).where({ nodeId, uuid: In(uuids) }).getMany() as Promise<LoadedServer[]>);
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

  insert(server: Partial<ServerEntity>, manager: EntityManager): Promise<ServerEntity> {
    const repo = manager.getRepository(ServerEntity);
    return repo.save(repo.create(server)).catch(externalIdTaken);
  }

  async update(id: string, changes: Partial<ServerEntity>, manager: EntityManager = this.servers.manager): Promise<void> {
    await manager.getRepository(ServerEntity).update({ id }, changes).catch(externalIdTaken);
  }

  findByExternalId(externalId: string): Promise<LoadedServer | null> {
    return this.loaded(this.servers.manager).where({ externalId }).getOne() as Promise<LoadedServer | null>;
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerEntity).delete({ id });
  }

  /** The memory and disk (MiB) the servers on each node are given (the totals the triggers keep, as of this transaction). */
  async allocatedByNode(nodeIds: string[], manager: EntityManager = this.servers.manager): Promise<Map<string, { memory: number; disk: number }>> {
    const rows =
      nodeIds.length === 0
        ? []
        : await manager.query<{ nodeId: string; memory: string; disk: string }[]>(
            `SELECT t.node_id AS "nodeId", t.memory, t.disk FROM server_totals t WHERE t.node_id = ANY($1::bigint[])`,
            [nodeIds],
          );
    const byNode = new Map(rows.map((r): [string, { memory: number; disk: number }] => [String(r.nodeId), { memory: Number(r.memory), disk: Number(r.disk) }]));
    return new Map(nodeIds.map((id) => [id, byNode.get(id) ?? { memory: 0, disk: 0 }]));
  }

  /**
   * Public nodes (in `locationIds` when given) with room for `memory` and `disk` more MiB within their
   * overallocation (-1: no limit), in id order, one page of them and how many there are in all.
   */
  async findDeployableNodeIds(locationIds: string[], memory: number, disk: number, skip: number, take: number): Promise<[string[], number]> {
    const params: unknown[] = [memory, disk];
    const locations = locationIds.length > 0 ? `$${params.push(locationIds)}` : undefined;
    // The totals the triggers keep; as a sum, one row even for a node without any (nulls, which count as 0).
    const given = (nodeId: string): string => `SELECT SUM(t.memory) AS memory, SUM(t.disk) AS disk FROM server_totals t WHERE t.node_id = ${nodeId}`;
    const viable = deployableNodeIds(given, { memory: '$1', disk: '$2', locations });
    const rows = await this.servers.manager.query<{ id: string; total: string }[]>(
      `SELECT v.id, count(*) OVER () AS total FROM (${viable}) v ORDER BY v.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, take, skip],
    );
    if (rows.length > 0 || skip === 0) {
      return [rows.map((r) => String(r.id)), rows.length > 0 ? Number(rows[0].total) : 0];
    }
    const [{ total }] = await this.servers.manager.query<{ total: string }[]>(`SELECT count(*) AS total FROM (${viable}) v`, params);
    return [[], Number(total)];
  }

  /** Marks the server as restoring if it is not suspended and its status is still `expected`; false when it was not. */
  async markRestoring(id: string, expected: ServerStatus | null): Promise<boolean> {
    const done = await this.servers.update({ id, suspended: false, status: expected === null ? IsNull() : expected }, { status: 'restoring_backup' });
    return (done.affected ?? 0) > 0;
  }

  /** Ends a restore: the server goes back to `status`, if it is still restoring. */
  async endRestoring(id: string, status: ServerStatus | null, manager: EntityManager = this.servers.manager): Promise<void> {
    await manager.getRepository(ServerEntity).update({ id, status: 'restoring_backup' }, { status });
  }

  /** The ids of the servers on a node, in id order. */
  async idsOnNode(nodeId: string): Promise<string[]> {
    const rows = await this.servers.find({ where: { nodeId }, select: { id: true }, order: { id: 'ASC' } });
    return rows.map((r) => r.id);
  }

  /**
   * One page of a node's server ids, in id order, and how many servers it has in all (a node's boot
   * list, whose configurations are mostly cached: the rows are loaded only for the misses). The total
   * is the node's row of server_totals, which the triggers keep in the transaction that adds or removes
   * a server: a window count over the node's servers read every one of them (1,000 on a full node).
   */
  async idPageOnNode(nodeId: string, skip: number, take: number): Promise<{ ids: string[]; total: number }> {
    const rows = await queryPrepared<{ id: string; total: string }>(
      this.servers.manager,
      'server-id-page-on-node',
      `SELECT s.id::text AS id, (${serverCount('$1')}) AS total FROM server s WHERE s.node_id = $1 ORDER BY s.id LIMIT $2 OFFSET $3`,
      [nodeId, take, skip],
    );
    // Past the last page there is no row to carry the total.
    const total = rows.length > 0 ? Number(rows[0].total) : Number((await this.servers.manager.query<{ total: string }[]>(serverCount('$1'), [nodeId]))[0].total);
    return { ids: rows.map((r) => r.id), total };
  }

  /** Locks the server's row, so that checks of a per-server limit (allocations, backups, databases) and the change they allow are one step. */
  async lockServer(id: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerEntity).createQueryBuilder('s').setLock('pessimistic_write').select('s.id').where({ id }).getOne();
  }

  /**
   * The variable values of these servers, in one prepared query, by server id (a server without any is
   * absent). Raw rows: a list page reads about 200, and hydrating them as entities cost more than the query.
   */
  async serverValuesOfServers(serverIds: string[]): Promise<Map<string, ServerVariableValue[]>> {
    const byServer = new Map<string, ServerVariableValue[]>();
    if (serverIds.length === 0) {
      return byServer;
    }
    const rows = await queryPrepared<{ serverId: string; variableId: string; value: string }>(
      this.servers.manager,
      'server-values-of-servers',
      'SELECT server_id AS "serverId", variable_id AS "variableId", value FROM server_variable WHERE server_id = ANY($1::bigint[])',
      [serverIds],
    );
    for (const { serverId, variableId, value } of rows) {
      const list = byServer.get(serverId);
      if (list) {
        list.push({ variableId, value });
      } else {
        byServer.set(serverId, [{ variableId, value }]);
      }
    }
    return byServer;
  }

  serverValuesOf(serverId: string, manager: EntityManager = this.servers.manager): Promise<ServerVariableEntity[]> {
    return manager.getRepository(ServerVariableEntity).findBy({ serverId });
  }

  async deleteServerValues(serverId: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(ServerVariableEntity).delete({ serverId });
  }

  async saveServerValues(rows: Partial<ServerVariableEntity>[], manager: EntityManager): Promise<void> {
    if (rows.length > 0) {
      await manager.getRepository(ServerVariableEntity).upsert(rows, ['serverId', 'variableId']);
    }
  }
}

/** A unique violation of the external id is a 409; anything else is rethrown. */
const externalIdTaken = (e: unknown): never => {
  const error = pgError(e);
  if (error?.code === UNIQUE_VIOLATION && (error.constraint === 'UQ_server_external_id' || error.detail.startsWith('Key (external_id)'))) {
    throw new AppException(ServerError.EXTERNAL_ID_TAKEN);
  }
  throw e;
};
