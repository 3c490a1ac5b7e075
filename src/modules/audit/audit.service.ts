import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, ILike, Repository } from 'typeorm';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { CursorPage, CursorPaginated, cursorPaginated } from 'src/common/http/cursor';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { likeLiteral } from 'src/database/like';
import { AuditChanges, AuditLogEntity } from 'src/modules/audit/audit-log.entity';
import { AuditRepository, AuditSort } from 'src/modules/audit/audit.repository';
import { AuditLogResponseDto, toAuditLogResponse } from 'src/modules/audit/dto/audit-log-response.dto';

interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  changes?: AuditChanges;
}

/** Where the name of each kind of target lives: its table, what is shown (a column, or an allocation's address), its id's type, and its parent's id (an egg variable's egg, an allocation's node). */
const TARGET_NAMES: Record<string, { table: string; name: string; id: 'bigint' | 'uuid'; parent?: string }> = {
  allocation: { table: 'allocation', name: "ip || ':' || port", id: 'bigint', parent: 'node_id' },
  user: { table: '"user"', name: 'username', id: 'bigint' },
  server: { table: 'server', name: 'name', id: 'bigint' },
  node: { table: 'node', name: 'name', id: 'bigint' },
  location: { table: 'location', name: 'short', id: 'bigint' },
  database_host: { table: 'database_host', name: 'name', id: 'bigint' },
  mount: { table: 'mount', name: 'name', id: 'bigint' },
  backup_host: { table: 'backup_host', name: 'name', id: 'bigint' },
  webhook: { table: 'webhook', name: 'name', id: 'bigint' },
  admin_role: { table: 'admin_role', name: 'name', id: 'bigint' },
  auth_provider: { table: 'auth_provider', name: 'name', id: 'bigint' },
  nest: { table: 'nest', name: 'name', id: 'uuid' },
  egg: { table: 'egg', name: 'name', id: 'uuid' },
  egg_variable: { table: 'egg_variable', name: 'name', id: 'uuid', parent: 'egg_id' },
};
const ID_SHAPES = { bigint: /^[1-9]\d{0,18}$/, uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i } as const;

/** A field kept in the entry itself (a deleted target's name, or its egg), from before or after the change. */
const snapshotOf = (changes: AuditChanges, fields: readonly string[]): string | null => {
  for (const side of [changes.before, changes.after]) {
    for (const field of fields) {
      const value = side?.[field];
      if (typeof value === 'string' && value !== '') {
        return value;
      }
    }
  }
  return null;
};

/** The field of an entry that names the parent of a target that has one. */
const PARENT_FIELDS: Record<string, string> = { egg_variable: 'eggId', allocation: 'nodeId' };

/** A deleted allocation's address, from what its entry recorded. */
const addressOf = (changes: AuditChanges): string | null => {
  const side = changes.before ?? changes.after;
  return typeof side?.ip === 'string' && typeof side.port === 'number' ? `${side.ip}:${side.port}` : null;
};

interface AuditFilter {
  action?: string;
  actorId?: string;
  targetType?: string;
  targetId?: string;
}

/** Values of `fields` that differ between two snapshots: the audit log's before/after. */
export const changedFields = <T extends object>(before: T, after: T, fields: readonly (keyof T)[]): Required<AuditChanges> => {
  const changes: Required<AuditChanges> = { before: {}, after: {} };
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes.before[field as string] = before[field];
      changes.after[field as string] = after[field];
    }
  }
  return changes;
};

export const pick = <T extends object>(value: T, fields: readonly (keyof T)[]): Record<string, unknown> =>
  Object.fromEntries(fields.map((f) => [f, value[f]]));

@Injectable()
export class AuditService {
  constructor(
    @InjectRepository(AuditLogEntity) private readonly repo: Repository<AuditLogEntity>,
    private readonly entries: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Writes one entry with `manager`, so that it commits or rolls back with the change it records. */
  async record(manager: EntityManager, actor: Actor, entry: AuditEntry): Promise<void> {
    const repo = manager.getRepository(AuditLogEntity);
    await repo.save(
      repo.create({
      actorId: actor.userId,
      actorUsername: actor.username,
      via: actor.via.slice(0, 32),
      ip: actor.ip?.slice(0, 64) ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      changes: entry.changes ?? {},
      createdAt: this.clock.now(),
      }),
    );
  }

  /** The admin list, newest first: a page-number page, or a cursor page when `page` is one. */
  list(filter: AuditFilter, page: Page): Promise<Paginated<AuditLogResponseDto>>;
  list(filter: AuditFilter, page: CursorPage): Promise<CursorPaginated<AuditLogResponseDto>>;
  list(filter: AuditFilter, page: Page | CursorPage): Promise<Paginated<AuditLogResponseDto> | CursorPaginated<AuditLogResponseDto>> {
    return this.listed(AuditService.filterWhere(filter), 'id', page);
  }

  private static filterWhere(filter: AuditFilter): FindOptionsWhere<AuditLogEntity> {
    const where: FindOptionsWhere<AuditLogEntity> = {};
    if (filter.action) {
      where.action = filter.action;
    }
    if (filter.actorId) {
      where.actorId = filter.actorId;
    }
    if (filter.targetType) {
      where.targetType = filter.targetType;
    }
    if (filter.targetId) {
      where.targetId = filter.targetId;
    }
    return where;
  }

  private async listed(
    where: FindOptionsWhere<AuditLogEntity>,
    sort: AuditSort,
    page: Page | CursorPage,
    oldestFirst = false,
  ): Promise<Paginated<AuditLogResponseDto> | CursorPaginated<AuditLogResponseDto>> {
    if ('keyset' in page) {
      const keyed = await this.entries.keysetPage(where, sort, page.keyset, page.perPage + 1);
      const names = await this.withNames(keyed.slice(0, page.perPage).map((k) => k.row));
      const byId = new Map(names.map((n) => [n.id, n]));
      return cursorPaginated(keyed, page, (k) => k.key, (kept) => kept.map((k) => byId.get(k.row.id)!));
    }
    const [rows, total] = await this.entries.page(where, sort, page, oldestFirst);
    return paginated(await this.withNames(rows), total, page);
  }

  /** One retention batch (src/modules/retention/): see AuditRepository.deleteOlder. */
  deleteOlder(before: Date, patterns: string[], except: boolean, limit: number): Promise<number> {
    return this.entries.deleteOlder(before, patterns, except, limit);
  }

  /** The entries with their targets named. */
  private async withNames(rows: AuditLogEntity[]): Promise<AuditLogResponseDto[]> {
    const names = await this.targetNames(rows);
    return rows.map((row) => {
      const found = names.get(`${row.targetType}:${row.targetId}`);
      return toAuditLogResponse(row, {
        name: found?.name ?? snapshotOf(row.changes, ['name', 'username', 'short']) ?? addressOf(row.changes),
        parentId: found?.parentId ?? (Object.hasOwn(PARENT_FIELDS, row.targetType) ? snapshotOf(row.changes, [PARENT_FIELDS[row.targetType]]) : null),
      });
    });
  }

  /**
   * The current names of a page's targets, in one query for the whole page (a UNION over the kinds it
   * holds); a target that is gone is not in the map, and the entry falls back to the name it recorded.
   */
  private async targetNames(rows: AuditLogEntity[]): Promise<Map<string, { name: string; parentId: string | null }>> {
    const byType = new Map<string, Set<string>>();
    for (const row of rows) {
      const source = Object.hasOwn(TARGET_NAMES, row.targetType) ? TARGET_NAMES[row.targetType] : undefined;
      if (source && ID_SHAPES[source.id].test(row.targetId)) {
        byType.set(row.targetType, (byType.get(row.targetType) ?? new Set()).add(row.targetId));
      }
    }
    if (byType.size === 0) {
      return new Map();
    }
    const params: string[][] = [];
    const selects = [...byType].map(([type, ids]) => {
      const source = TARGET_NAMES[type];
      params.push([...ids]);
      const parent = source.parent ? `${source.parent}::text` : 'NULL::text';
      return `SELECT '${type}' AS type, id::text AS id, (${source.name})::text AS name, ${parent} AS parent_id FROM ${source.table} WHERE id = ANY($${params.length}::${source.id}[])`;
    });
    const found = await this.repo.query<{ type: string; id: string; name: string; parent_id: string | null }[]>(selects.join(' UNION ALL '), params);
    return new Map(found.map((r) => [`${r.type}:${r.id}`, { name: r.name, parentId: r.parent_id }]));
  }

  /**
   * What a user did to their own account (password, e-mail, two-factor…), newest first unless
   * `oldestFirst`: never another user's entries, not even an administrator's about this account,
   * nor this user's actions on anything else. `event` matches anywhere in the action, any case; `action` exactly.
   */
  ownAccountEvents(userId: string, filter: { event?: string; action?: string; oldestFirst?: boolean }, page: Page): Promise<Paginated<AuditLogResponseDto>>;
  ownAccountEvents(userId: string, filter: { event?: string; action?: string }, page: CursorPage): Promise<CursorPaginated<AuditLogResponseDto>>;
  ownAccountEvents(
    userId: string,
    filter: { event?: string; action?: string; oldestFirst?: boolean },
    page: Page | CursorPage,
  ): Promise<Paginated<AuditLogResponseDto> | CursorPaginated<AuditLogResponseDto>> {
    const where: FindOptionsWhere<AuditLogEntity> = { actorId: userId, targetType: 'user', targetId: userId };
    if (filter.action) {
      where.action = filter.action;
    } else if (filter.event) {
      where.action = ILike(`%${likeLiteral(filter.event)}%`);
    }
    return this.listed(where, 'time', page, filter.oldestFirst);
  }
}
