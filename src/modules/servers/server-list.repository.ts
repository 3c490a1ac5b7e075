import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Keyset, keysetClause } from 'src/common/http/cursor';
import { containsPattern, ListQuery } from 'src/database/like';
import { queryPrepared } from 'src/database/prepared-query';
import { allocationMatches, joinNodeName, joinServerAllocations, nodeNameMatches } from 'src/modules/nodes/nodes.sql';
import { everyServerIdsPage, searchMatchIds, serverCount } from 'src/modules/servers/server-list.sql';
import { ListedServer, ServerEntity } from 'src/modules/servers/server.entity';
import { ACTIVE_TRANSFER_SQL, ServerTransferEntity } from 'src/modules/servers/transfers/server-transfer.entity';
import { joinOwnerUsername, usernameMatches } from 'src/modules/users/users.sql';

/** Whose servers a client list shows: every server (admins), a user's own, own and shared, or shared only. */
export type ClientListScope = { kind: 'all' } | { kind: 'owned' | 'visible' | 'shared'; userId: string };

/** A server as a client list page shows it (ServerListRepository.clientListPage). */
export interface ClientListRow {
  id: string;
  uuid: string;
  identifier: string;
  name: string;
  description: string | null;
  status: ServerEntity['status'];
  suspended: boolean;
  memory: number;
  disk: number;
  cpu: number;
  swap: number;
  io: number;
  /** As Date#toISOString writes it. */
  created_at: string;
  allocation_id: string | null;
  owner_id: string;
  owner_username: string;
  node_id: string;
  node_name: string;
  /** Ordered by ip, then port. */
  allocations: { id: string; ip: string; alias: string | null; port: number; notes: string | null }[];
  /** The caller's subuser permissions on a server shared with them; null on the others (their own, or any in an admin's list). */
  grant: string[] | null;
  /** It has an active transfer (docs/admin-guide.md#transfers). */
  transferring: boolean;
}

/**
 * A timestamp as Date#toISOString writes it, milliseconds truncated as both drivers' date parsers
 * truncate them: the text costs the panel less than parsing a Date per row to print it again.
 */
const CREATED_AT_AS_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The columns of a server a client list shows (ClientListRow). */
const CLIENT_LIST_SERVER_COLUMNS = `s.id, s.uuid, s.identifier, s.name, s.description, s.status, s.suspended, s.memory, s.disk, s.cpu, s.swap, s.io,
  to_char(s.created_at AT TIME ZONE 'UTC', ${CREATED_AT_AS_ISO}) AS created_at, s.allocation_id, s.owner_id, s.node_id,
  EXISTS (SELECT 1 FROM server_transfer transfer WHERE transfer.server_id = s.id AND ${ACTIVE_TRANSFER_SQL}) AS transferring`;

/** The servers a client list reads from, which it keeps, and where the caller's grant comes from. */
/** The servers a client list holds; `readsRows`: the query reads their columns (a search, their nodes), not only their ids. */
const clientListSource = (scope: ClientListScope, readsRows: boolean): { from: string; where: string; grant: string; params: string[] } => {
  switch (scope.kind) {
    case 'all':
      return { from: 'server s', where: 'TRUE', grant: 'NULL::text[]', params: [] };
    case 'owned':
      return { from: 'server s', where: 's.owner_id = $1', grant: 'NULL::text[]', params: [scope.userId] };
    case 'visible':
      // Owned and shared in one list, so a page never splits or repeats a server across the two kinds:
      // built from the user's own servers (by owner) and their subuser rows, never from every server.
      // Unfiltered, the page's ids and the count need no server row beyond the (owner_id, id) index: joined
      // to server first, an owner of 5,000 servers cost PostgreSQL 12 ms a page (a merge join walking the
      // whole primary key, and 5,000 lookups to count); without the join, about 2.
      if (!readsRows) {
        return {
          from: `(SELECT so.id, NULL::text[] AS permissions FROM server so WHERE so.owner_id = $1
            UNION ALL SELECT su.server_id, su.permissions FROM subuser su JOIN server ss ON ss.id = su.server_id WHERE su.user_id = $1 AND ss.owner_id <> $1) s`,
          where: 'TRUE',
          grant: 's.permissions',
          params: [scope.userId],
        };
      }
      return {
        from: `(SELECT so.id, NULL::text[] AS permissions FROM server so WHERE so.owner_id = $1
            UNION ALL SELECT su.server_id, su.permissions FROM subuser su JOIN server ss ON ss.id = su.server_id WHERE su.user_id = $1 AND ss.owner_id <> $1) v
          JOIN server s ON s.id = v.id`,
        where: 'TRUE',
        grant: 'v.permissions',
        params: [scope.userId],
      };
    case 'shared':
      return { from: 'server s JOIN subuser su ON su.server_id = s.id AND su.user_id = $1', where: 'TRUE', grant: 'su.permissions', params: [scope.userId] };
  }
};


/**
 * Whether server `s` (or the server under another alias) matches a search pattern: its own columns,
 * its node's name, its owner's username, or one of its allocations (address, alias, `ip:port`).
 */
const searchCondition = (pattern: string, s = 's'): string => `(${s}.name ILIKE ${pattern} OR ${s}.identifier ILIKE ${pattern} OR ${s}.uuid::text ILIKE ${pattern}
  OR ${s}.description ILIKE ${pattern} OR ${nodeNameMatches(`${s}.node_id`, pattern)} OR ${usernameMatches(`${s}.owner_id`, pattern)}
  OR ${allocationMatches(`${s}.id`, pattern)})`;

/** A server of the page with one of its allocations (or none), as clientListPage reads them. */
type ClientListJoinRow = Omit<ClientListRow, 'allocations'> & {
  a_id: string | null;
  a_ip: string;
  a_alias: string | null;
  a_port: number;
  a_notes: string | null;
  total: string;
};

/** A page size that may be written into a statement's text: a whole number of 1 to 100 (the pagination's bounds). */
const isLiteralLimit = (take: number): boolean => Number.isSafeInteger(take) && take >= 1 && take <= 100;

/** The columns the admin and application lists filter by (Pterodactyl's partial filters), each behind a trigram index. */
const LIST_FILTER_COLUMNS: Record<string, string> = {
  uuid: 's.uuid::text',
  identifier: 's.identifier',
  name: 's.name',
  description: 's.description',
  image: 's.image',
  externalId: 's.external_id',
};

/** The server lists: the admin list (pages and cursor pages) and the client lists, with their searches and totals (server-list.sql.ts). */
/** Which servers an admin list keeps: one owner's, one node's, or those of some nodes (an administrator role's). */
export interface ServerListWhere {
  ownerId?: string;
  nodeId?: string;
  nodeIds?: readonly string[];
}

@Injectable()
export class ServerListRepository {
  constructor(@InjectRepository(ServerEntity) private readonly servers: Repository<ServerEntity>) {}

  /**
   * One page of servers as list pages show them, in id order (or `list.sort`), and how many there are
   * in all; `search` keeps those that match it as the client list's search does. The page's ids come
   * first, from one narrow query (a search as the union of its indexed branches, searchMatchIds), then
   * their rows. The total of an unfiltered list (or one node's) is the per-node count the triggers
   * keep, and a page in the second half of it is read from the end, so the last page costs what the
   * first does; a filtered list counts its matches in the query of the page.
   */
  async findListPage(where: ServerListWhere, skip: number, take: number, search?: string, list: ListQuery = {}): Promise<[ListedServer[], number]> {
    const params: unknown[] = [];
    const p = (value: unknown): string => `$${params.push(value)}`;
    const conditions: string[] = [];
    if (where.ownerId !== undefined) {
      conditions.push(`s.owner_id = ${p(where.ownerId)}`);
    }
    if (where.nodeIds !== undefined) {
      conditions.push(`s.node_id = ANY(${p(where.nodeIds)}::bigint[])`);
    }
    for (const [field, value] of Object.entries(list.filters ?? {})) {
      const column = LIST_FILTER_COLUMNS[field];
      if (column && value !== undefined) {
        conditions.push(`${column} ILIKE ${p(containsPattern(value))}`);
      }
    }
    const searched = search !== undefined && search.trim() !== '' ? search.trim() : undefined;
    // One user's servers are few: each is tested; every server's (or a node's) are searched by the union of indexed branches.
    const pattern = searched === undefined ? undefined : p(containsPattern(searched));
    const matches = pattern === undefined || where.ownerId !== undefined ? undefined : searchMatchIds(pattern);
    if (pattern !== undefined && matches === undefined) {
      conditions.push(searchCondition(pattern));
    }
    const counted = conditions.length === 0 && matches === undefined;
    if (where.nodeId !== undefined) {
      conditions.push(`s.node_id = ${p(where.nodeId)}`);
    }
    // By id, or by uuid then id (pages stay stable); `reverse` reads the same order from its end.
    const order = (reverse: boolean): string => {
      const flip = (descending: boolean): string => (descending !== reverse ? 'DESC' : 'ASC');
      return list.sort?.by === 'uuid' ? `s.uuid ${flip(list.sort.descending)}, s.id ${flip(false)}` : `s.id ${flip(list.sort?.by === 'id' && list.sort.descending)}`;
    };
    // A search alone pages over the union's ids; with other conditions or another order, over their servers.
    const from = matches === undefined ? 'server s' : conditions.length === 0 && list.sort?.by !== 'uuid' ? `(${matches}) s` : `(${matches}) m JOIN server s ON s.id = m.id`;
    const condition = conditions.length > 0 ? conditions.join(' AND ') : 'TRUE';
    let ids: string[];
    let total: number;
    if (counted) {
      // The total first (a sum over nodes), then the page from whichever end is nearer.
      const [row] = await this.servers.manager.query<{ total: string }[]>(serverCount(where.nodeId === undefined ? undefined : '$1'), where.nodeId === undefined ? [] : [where.nodeId]);
      total = Number(row.total);
      if (skip >= total) {
        return [[], total];
      }
      const reverse = skip > total / 2;
      const [limit, offset] = reverse ? [Math.min(take, total - skip), Math.max(total - skip - take, 0)] : [take, skip];
      const rows = await this.servers.manager.query<{ id: string }[]>(`SELECT s.id FROM ${from} WHERE ${condition} ORDER BY ${order(reverse)} LIMIT ${p(limit)} OFFSET ${p(offset)}`, params);
      ids = rows.map((r) => String(r.id));
      if (reverse) {
        ids.reverse();
      }
    } else {
      const filterParams = [...params];
      // The matches first, then their page and count: over the query itself the planner walked the
      // primary key in order testing every server, as if the LIMIT could stop the count early.
      const rows = await this.servers.manager.query<{ id: string; total: string }[]>(
        `WITH m AS MATERIALIZED (SELECT s.id${list.sort?.by === 'uuid' ? ', s.uuid' : ''} FROM ${from} WHERE ${condition})
         SELECT s.id, count(*) OVER () AS total FROM m s ORDER BY ${order(false)} LIMIT ${p(take)} OFFSET ${p(skip)}`,
        params,
      );
      ids = rows.map((r) => String(r.id));
      if (rows.length > 0 || skip === 0) {
        total = rows.length > 0 ? Number(rows[0].total) : 0;
      } else {
        const [row] = await this.servers.manager.query<{ total: string }[]>(`SELECT count(*) AS total FROM ${from} WHERE ${condition}`, filterParams);
        total = Number(row.total);
      }
    }
    if (ids.length === 0) {
      return [[], total];
    }
    const byId = new Map((await this.listed().where({ id: In(ids) }).getMany()).map((s) => [s.id, s]));
    return [ids.flatMap((id) => byId.get(id) ?? []) as ListedServer[], total];
  }

  /**
   * A cursor page of the admin list (src/common/http/cursor.ts): up to `take` servers past `keyset` in
   * id order, kept as findListPage keeps them (`where`, `search`); no count.
   */
  findListKeysetPage(where: ServerListWhere, keyset: Keyset | null, take: number, search?: string): Promise<ListedServer[]> {
    const clause = keysetClause([{ column: 'server.id', cast: 'bigint' }], keyset, 'ASC');
    const { nodeIds, ...columns } = where;
    const query = this.listed().where(columns);
    if (nodeIds !== undefined) {
      query.andWhere(nodeIds.length === 0 ? 'FALSE' : 'server.node_id IN (:...onlyNodes)', { onlyNodes: nodeIds });
    }
    if (search !== undefined && search.trim() !== '') {
      // The union of indexed branches findListPage searches with, not an OR over every server.
      query.andWhere(`server.id IN (${searchMatchIds(':pattern')})`, { pattern: containsPattern(search.trim()) });
    }
    if (clause.where) {
      query.andWhere(clause.where, clause.params);
    }
    return query.orderBy('server.id', clause.order).limit(take).getMany() as Promise<ListedServer[]>;
  }

  /**
   * One page of a client server list (docs/api.md), in server id order, and how many servers the
   * list holds in all, in one query: the page's servers, only the columns the list shows, joined to
   * their node's and owner's names and to their allocations (a row per allocation), with the count
   * as a subquery PostgreSQL runs once; prepared once per connection (queryPrepared). Raw rows:
   * hydrating entities for 50 servers cost the panel more than the query cost the database. A page
   * past the end has no row to carry the total, so only then a second query counts.
   */
  async clientListPage(scope: ClientListScope, skip: number, take: number, search?: string): Promise<{ rows: ClientListRow[]; total: number }> {
    const filtered = search !== undefined && search.trim() !== '';
    const source = clientListSource(scope, filtered);
    const { grant } = source;
    const params = filtered ? [...source.params, containsPattern(search.trim())] : source.params;
    // Every server's list searches the union of indexed branches; one user's servers are few, and are tested one by one.
    const from = filtered && scope.kind === 'all' ? `(${searchMatchIds(`$${params.length}`)}) s` : source.from;
    const where = filtered && scope.kind !== 'all' ? `${source.where} AND ${searchCondition(`$${params.length}`)}` : source.where;
    const count = scope.kind === 'all' && !filtered ? serverCount() : `SELECT count(*) AS total FROM ${from} WHERE ${where}`;
    // The page's ids first (from an index alone where the list allows), then their rows: an offset deep into the list skips ids, not rows.
    const [take$, skip$] = [`$${params.length + 1}`, `$${params.length + 2}`];
    // The first page of every server: its LIMIT written in the text (a whole number of 1 to 100, one
    // statement per page size), so that PostgreSQL keeps one generic plan for it. With the LIMIT a
    // parameter it guesses a tenth of the table, and at 100,000 servers that plan cost so much more
    // than a custom one that it planned the query again on every call (a millisecond, more than it
    // took to run).
    const first = scope.kind === 'all' && !filtered && skip === 0 && isLiteralLimit(take) ? take : undefined;
    const ids =
      first !== undefined
        ? `SELECT e.id, NULL::text[] AS "grant" FROM server e ORDER BY e.id LIMIT ${first}`
        : scope.kind === 'all' && !filtered
          ? `SELECT pe.id, NULL::text[] AS "grant" FROM (${everyServerIdsPage(take$, skip$)}) pe`
          : `SELECT s.id, ${grant} AS "grant" FROM ${from} WHERE ${where} ORDER BY s.id LIMIT ${take$} OFFSET ${skip$}`;
    const page = `SELECT ${CLIENT_LIST_SERVER_COLUMNS}, pg."grant" FROM (${ids}) pg JOIN server s ON s.id = pg.id`;
    const [node, owner, allocations] = [joinNodeName('p.node_id'), joinOwnerUsername('p.owner_id'), joinServerAllocations('p.id')];
    const joined = await queryPrepared<ClientListJoinRow>(
      this.servers.manager,
      first !== undefined ? `client-list-all-first-${first}` : `client-list-${scope.kind}${filtered ? '-search' : ''}`,
      `SELECT p.*, ${node.columns}, ${owner.columns}, ${allocations.columns}, (${count}) AS total
       FROM (${page}) p ${node.join} ${owner.join} ${allocations.join}
       ORDER BY p.id, ${allocations.order}`,
      first !== undefined ? params : [...params, take, skip],
    );
    const rows: ClientListRow[] = [];
    let last: ClientListRow | undefined;
    for (const j of joined) {
      if (last?.id !== j.id) {
        // Field by field: a rest pattern over the joined row cost more than the rest of the loop.
        last = {
          id: j.id,
          uuid: j.uuid,
          identifier: j.identifier,
          name: j.name,
          description: j.description,
          status: j.status,
          suspended: j.suspended,
          memory: j.memory,
          disk: j.disk,
          cpu: j.cpu,
          swap: j.swap,
          io: j.io,
          created_at: j.created_at,
          allocation_id: j.allocation_id,
          owner_id: j.owner_id,
          owner_username: j.owner_username,
          node_id: j.node_id,
          node_name: j.node_name,
          grant: j.grant,
          transferring: j.transferring,
          allocations: [],
        };
        rows.push(last);
      }
      if (j.a_id !== null) {
        last.allocations.push({ id: j.a_id, ip: j.a_ip, alias: j.a_alias, port: j.a_port, notes: j.a_notes });
      }
    }
    if (joined.length > 0 || skip === 0) {
      return { rows, total: joined.length > 0 ? Number(joined[0].total) : 0 };
    }
    const [{ total }] = await this.servers.manager.query<{ total: string }[]>(count, params);
    return { rows, total: Number(total) };
  }

  /** The nodes of the servers a user owns or is a subuser of (ClientListScope `visible`). */
  async nodeIdsVisibleTo(userId: string): Promise<string[]> {
    const { from, where, params } = clientListSource({ kind: 'visible', userId }, true);
    const rows = await this.servers.manager.query<{ node_id: unknown }[]>(`SELECT DISTINCT s.node_id FROM ${from} WHERE ${where}`, params);
    return rows.map((r) => String(r.node_id));
  }

  private listed() {
    return this.servers
      .createQueryBuilder('server')
      .leftJoin('server.node', 'node')
      .addSelect(['node.id', 'node.name'])
      .leftJoin('server.owner', 'owner')
      .addSelect(['owner.id', 'owner.username'])
      .leftJoinAndMapOne('server.activeTransfer', ServerTransferEntity, 'transfer', `transfer.server_id = server.id AND ${ACTIVE_TRANSFER_SQL}`)
      .orderBy('server.id', 'ASC');
  }
}
