import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, likeLiteral } from 'src/database/like';
import { allocationAt } from 'src/modules/nodes/nodes.sql';
import { ServerEntity } from 'src/modules/servers/server.entity';
import type { ServerSearchFilters, ServerSearchScope } from 'src/modules/servers/server-search';
import { everyServerIdsPage, serverCount } from 'src/modules/servers/server-list.sql';

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d{0,5})?$/;

/** Servers found by their columns and allocations, as the Pterodactyl client API's server list filters them. */
@Injectable()
export class ServerSearchRepository {
  constructor(@InjectRepository(ServerEntity) private readonly servers: Repository<ServerEntity>) {}

  /**
   * The identifiers of one page of the servers in `scope` matching `filters`, in id order, and how
   * many match in all, in one query (a page past the end has no row to carry the total: only then a
   * second query counts).
   */
  async identifierPage(scope: ServerSearchScope, filters: ServerSearchFilters, skip: number, take: number): Promise<{ identifiers: string[]; total: number }> {
    const params: unknown[] = [];
    const p = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    // The ids of the user's own servers and of those they are a subuser of, found from the user (never by testing every server).
    const mine = (userId: string): string => {
      const me = p(userId);
      return `SELECT so.id FROM server so WHERE so.owner_id = ${me} UNION SELECT su.server_id FROM subuser su WHERE su.user_id = ${me}`;
    };
    const where: string[] = [];
    // What an unfiltered list counts cheaply: every server (the per-node counts the triggers keep), or every server but the user's.
    let scopeCount: string | undefined;
    switch (scope.kind) {
      case 'all':
        where.push('TRUE');
        scopeCount = serverCount();
        break;
      case 'owned':
        where.push(`s.owner_id = ${p(scope.userId)}`);
        break;
      case 'visible':
        where.push(`s.id IN (${mine(scope.userId)})`);
        break;
      case 'others': {
        const ids = mine(scope.userId);
        where.push(`s.id NOT IN (${ids})`);
        scopeCount = `SELECT (${serverCount()}) - (SELECT count(*) FROM (${ids}) v) AS total`;
        break;
      }
    }
    for (const [field, column] of [
      ['uuid', 's.uuid::text'],
      ['name', 's.name'],
      ['description', 's.description'],
      ['externalId', 's.external_id'],
    ] as const) {
      const value = filters[field];
      if (value !== undefined) {
        where.push(`${column} ILIKE ${p(containsPattern(value))}`);
      }
    }
    const { any } = filters;
    if (any !== undefined) {
      if (IPV4.test(any) || /^:\d{1,5}$/.test(any)) {
        const [ip, port] = any.split(':');
        where.push(allocationAt('s.id', ip ? p(ip) : null, port ? p(`${port}%`) : null));
      } else {
        const exact = p(any);
        where.push(
          `(s.uuid::text = ${exact} OR s.uuid::text LIKE ${p(`${likeLiteral(any.toLowerCase())}%`)} OR s.identifier = ${exact} OR s.external_id = ${exact} OR s.name ILIKE ${p(containsPattern(any))})`,
        );
      }
    }
    const condition = where.join(' AND ');
    const filterParams = [...params];
    const counted = where.length === 1 ? scopeCount : undefined;
    // The page's ids first (from the primary key alone when unfiltered), then their identifiers: a deep offset skips index entries, not rows.
    const ids =
      condition === 'TRUE'
        ? `SELECT pe.id, (${serverCount()}) AS total FROM (${everyServerIdsPage(p(take), p(skip))}) pe`
        : counted
          ? `SELECT s.id, (${counted}) AS total FROM server s WHERE ${condition} ORDER BY s.id LIMIT ${p(take)} OFFSET ${p(skip)}`
          : // The matches first, then their page and count (over the query itself the planner walked the primary key testing every server).
            `WITH m AS MATERIALIZED (SELECT s.id FROM server s WHERE ${condition}) SELECT m.id, COUNT(*) OVER () AS total FROM m ORDER BY m.id LIMIT ${p(take)} OFFSET ${p(skip)}`;
    const sql = `SELECT s.identifier, pg.total FROM (${ids}) pg JOIN server s ON s.id = pg.id ORDER BY s.id`;
    const rows: { identifier: string; total: string }[] = await this.servers.manager.query(sql, params);
    if (rows.length === 0 && skip > 0) {
      const [{ total }]: { total: string }[] = await this.servers.manager.query(counted ?? `SELECT COUNT(*) AS total FROM server s WHERE ${condition}`, filterParams);
      return { identifiers: [], total: Number(total) };
    }
    return { identifiers: rows.map((r) => r.identifier), total: rows.length > 0 ? Number(rows[0].total) : 0 };
  }
}
