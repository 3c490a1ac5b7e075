import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PterodactylPage } from 'src/modules/pterodactyl/common/fractal';
import { likeLiteral } from 'src/database/like';

export type ClientListType = 'owner' | 'admin' | 'admin-all' | 'default';

export interface ClientListFilters {
  uuid?: string;
  name?: string;
  description?: string;
  external_id?: string;
  '*'?: string;
}

/** `$1, $2, …` for a list of parameters. */
const placeholders = (values: unknown[]): string => values.map((_, i) => `$${i + 1}`).join(', ');

/** A server the extras query did not find (deleted meanwhile). */
export const NO_EXTRAS: ServerExtras = { maintenance: false, eggUuid: '', eggName: '', eggFeatures: [], hasTransfer: false };

export interface ServerExtras {
  maintenance: boolean;
  eggUuid: string;
  eggName: string;
  eggFeatures: string[];
  hasTransfer: boolean;
}

export interface ClientAllocation {
  id: string;
  ip: string;
  alias: string | null;
  port: number;
  notes: string | null;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d{0,5})?$/;


/**
 * The few reads the client layer makes that Hatchery's services do not offer in Pterodactyl's terms:
 * the server list with Pterodactyl's `type` and filters, records addressed by uuid.
 */
@Injectable()
export class PterodactylClientLookups {
  constructor(private readonly db: DataSource) {}

  /** The identifiers of a page of servers the caller lists (ClientController@index), in id order, and how many there are. */
  async serverPage(user: { id: string; admin: boolean }, type: ClientListType, filters: ClientListFilters, at: PterodactylPage): Promise<{ identifiers: string[]; total: number }> {
    const params: unknown[] = [];
    const p = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const visible = (): string => {
      const me = p(user.id);
      return `(s.owner_id = ${me} OR EXISTS (SELECT 1 FROM subuser su WHERE su.server_id = s.id AND su.user_id = ${me}))`;
    };
    const where: string[] = [];
    if (type === 'admin' || type === 'admin-all') {
      // Not an administrator: no error, an empty list (as Pterodactyl answers).
      where.push(!user.admin ? 'FALSE' : type === 'admin' ? `NOT ${visible()}` : 'TRUE');
    } else if (type === 'owner') {
      where.push(`s.owner_id = ${p(user.id)}`);
    } else {
      where.push(visible());
    }
    for (const [field, column] of [
      ['uuid', 's.uuid::text'],
      ['name', 's.name'],
      ['description', 's.description'],
      ['external_id', 's.external_id'],
    ] as const) {
      const value = filters[field];
      if (value !== undefined) {
        where.push(`LOWER(${column}) LIKE ${p(`%${likeLiteral(value.toLowerCase())}%`)}`);
      }
    }
    const any = filters['*'];
    if (any !== undefined) {
      if (IPV4.test(any) || /^:\d{1,5}$/.test(any)) {
        const [ip, port] = any.split(':');
        const conditions = [ip ? `a.ip = ${p(ip)}` : 'TRUE', port ? `a.port::text LIKE ${p(`${port}%`)}` : 'TRUE'];
        where.push(`EXISTS (SELECT 1 FROM allocation a WHERE a.server_id = s.id AND ${conditions.join(' AND ')})`);
      } else {
        const exact = p(any);
        where.push(
          `(s.uuid::text = ${exact} OR s.uuid::text LIKE ${p(`${likeLiteral(any.toLowerCase())}%`)} OR s.identifier = ${exact} OR s.external_id = ${exact} OR LOWER(s.name) LIKE ${p(`%${likeLiteral(any.toLowerCase())}%`)})`,
        );
      }
    }
    const sql = `SELECT s.identifier, COUNT(*) OVER () AS total FROM server s WHERE ${where.join(' AND ')} ORDER BY s.id LIMIT ${p(at.perPage)} OFFSET ${p(at.skip)}`;
    const rows: { identifier: string; total: string }[] = await this.db.query(sql, params);
    if (rows.length === 0 && at.skip > 0) {
      const [{ total }]: { total: string }[] = await this.db.query(
        `SELECT COUNT(*) AS total FROM server s WHERE ${where.join(' AND ')}`,
        params.slice(0, params.length - 2),
      );
      return { identifiers: [], total: Number(total) };
    }
    return { identifiers: rows.map((r) => r.identifier), total: rows.length > 0 ? Number(rows[0].total) : 0 };
  }

  /** What the client server transformer shows beyond the cached servers (their nodes' maintenance, their eggs), in one query, by server id. */
  async serversExtras(serverIds: string[]): Promise<Map<string, ServerExtras>> {
    if (serverIds.length === 0) {
      return new Map();
    }
    const rows: { id: string; maintenance_mode: boolean; egg_id: string; egg_name: string; features: string[] | null }[] = await this.db.query(
      `SELECT s.id, n.maintenance_mode, e.id AS egg_id, e.name AS egg_name, e.features FROM server s JOIN node n ON n.id = s.node_id JOIN egg e ON e.id = s.egg_id WHERE s.id IN (${placeholders(serverIds)})`,
      serverIds,
    );
    return new Map(
      rows.map((row) => [String(row.id), { maintenance: row.maintenance_mode, eggUuid: row.egg_id, eggName: row.egg_name, eggFeatures: row.features ?? [], hasTransfer: false }]),
    );
  }

  async allocationsOf(serverId: string): Promise<ClientAllocation[]> {
    return (await this.allocationsOfServers([serverId])).get(serverId) ?? [];
  }

  /** The allocations of many servers in one query, by server id (a server with none is absent). */
  async allocationsOfServers(serverIds: string[]): Promise<Map<string, ClientAllocation[]>> {
    const byServer = new Map<string, ClientAllocation[]>();
    if (serverIds.length === 0) {
      return byServer;
    }
    const rows: { server_id: string; id: string; ip: string; alias: string | null; port: number; notes: string | null }[] = await this.db.query(
      `SELECT server_id, id, ip, alias, port, notes FROM allocation WHERE server_id IN (${placeholders(serverIds)}) ORDER BY ip, port`,
      serverIds,
    );
    for (const r of rows) {
      const serverId = String(r.server_id);
      byServer.set(serverId, [...(byServer.get(serverId) ?? []), { id: String(r.id), ip: r.ip, alias: r.alias, port: Number(r.port), notes: r.notes }]);
    }
    return byServer;
  }

  /** A backup of the server by its uuid (Pterodactyl's `{backup}`), as Hatchery's id; null when the server has none such. */
  async backupIdOf(serverId: string, uuid: string): Promise<string | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) {
      return null;
    }
    const rows: { id: string }[] = await this.db.query('SELECT id FROM backup WHERE server_id = $1 AND uuid = $2', [serverId, uuid.toLowerCase()]);
    return rows.length > 0 ? String(rows[0].id) : null;
  }

  /** A subuser of the server by its account's uuid (Pterodactyl's `{user}`), as the account's id; null when none. */
  async subuserIdOf(serverId: string, uuid: string): Promise<string | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) {
      return null;
    }
    const rows: { user_id: string }[] = await this.db.query('SELECT su.user_id FROM subuser su JOIN "user" u ON u.id = su.user_id WHERE su.server_id = $1 AND u.uuid = $2', [
      serverId,
      uuid.toLowerCase(),
    ]);
    return rows.length > 0 ? String(rows[0].user_id) : null;
  }
}
