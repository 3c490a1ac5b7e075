import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, Like, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { Keyset, keysetClause, keysetTimestamp } from 'src/common/http/cursor';
import { fromNearestEnd, Page } from 'src/common/http/pagination';
import { ServerActivityCountEntity, ServerActivityEntity } from 'src/modules/servers/server-activity.entity';
import { likeLiteral } from 'src/database/like';

/** Who wrote an entry that no signed-in user made: the schedule runner, the daemon, the SFTP sign-in, or the panel's own housekeeping. */
type SystemVia = 'schedule' | 'daemon' | 'sftp' | 'panel';

export interface ActivityOptions {
  /** Write inside this transaction, so the entry stands or falls with the change it describes. */
  manager?: EntityManager;
  /** When it happened, if not now (an event timed before a slow daemon call). */
  at?: Date;
}

interface SystemActivityOptions extends ActivityOptions {
  /** The user the system acted for or about (a daemon event's user, a refused SFTP sign-in), if known. */
  user?: { id: string; username: string } | null;
  ip?: string | null;
}

/** One entry of a daemon's batch. */
interface DaemonActivity {
  serverId: string;
  event: string;
  metadata: Record<string, unknown>;
  user: { id: string; username: string } | null;
  ip: string | null;
  at: Date;
}

/** An entry no signed-in user made, with the user it concerns when one is known. */
const systemRow = (
  serverId: string,
  via: SystemVia,
  event: string,
  metadata: Record<string, unknown>,
  user: { id: string; username: string } | null,
  ip: string | null,
  createdAt: Date,
): Partial<ServerActivityEntity> => ({ serverId, actorId: user?.id ?? null, actorUsername: user?.username ?? null, event, metadata, ip, via, createdAt });

/** The one way a feature writes (and reads) a server's activity log. */
@Injectable()
export class ServerActivityLog {
  constructor(
    @InjectRepository(ServerActivityEntity) private readonly rows: Repository<ServerActivityEntity>,
    @InjectRepository(ServerActivityCountEntity) private readonly counts: Repository<ServerActivityCountEntity>,
    private readonly clock: Clock,
  ) {}

  /** Something a signed-in user (or their API key) did. */
  byUser(serverId: string, actor: Actor, event: string, metadata: Record<string, unknown>, options: ActivityOptions = {}): Promise<void> {
    return this.write(
      { serverId, actorId: actor.userId, actorUsername: actor.username, event, metadata, ip: actor.ip, via: actor.via.slice(0, 32), createdAt: options.at ?? this.clock.now() },
      options.manager,
    );
  }

  /** Something the panel or the daemon did on its own. */
  bySystem(serverId: string, via: SystemVia, event: string, metadata: Record<string, unknown>, options: SystemActivityOptions = {}): Promise<void> {
    return this.write(systemRow(serverId, via, event, metadata, options.user ?? null, options.ip ?? null, options.at ?? this.clock.now()), options.manager);
  }

  /** What the daemon reported (a backup finished, a restore failed). */
  byDaemon(serverId: string, event: string, metadata: Record<string, unknown>, options: SystemActivityOptions = {}): Promise<void> {
    return this.bySystem(serverId, 'daemon', event, metadata, options);
  }

  /** A daemon's batch in few statements, all or none. */
  async many(entries: DaemonActivity[]): Promise<void> {
    if (entries.length === 0) {
      return;
    }
    const rows = entries.map((e) => systemRow(e.serverId, 'daemon', e.event, e.metadata, e.user, e.ip, e.at));
    // 8 columns a row: 1,000 rows stay far below PostgreSQL's 65,535 bind parameters.
    const CHUNK = 1_000;
    await this.rows.manager.transaction(async (manager) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await manager.getRepository(ServerActivityEntity).insert(rows.slice(i, i + CHUNK) as QueryDeepPartialEntity<ServerActivityEntity>[]);
      }
    });
  }

  /**
   * Whether anyone stopped the server in (`from`, `to`]: a stop, restart or kill through the panel, a
   * schedule or the console socket (Wings reports those), or the egg's stop command typed in the console.
   */
  async stoppedBetween(serverId: string, from: Date, to: Date, stopCommand: string | null): Promise<boolean> {
    const rows = await this.rows.query<unknown[]>(
      `SELECT 1 FROM server_activity
       WHERE server_id = $1 AND created_at > $2 AND created_at <= $3
         AND (event IN ('server.power.stop', 'server.power.restart', 'server.power.kill')
              OR (event = 'server.console.command' AND $4::text IS NOT NULL AND lower(trim(metadata->>'command')) = lower($4::text)))
       LIMIT 1`,
      [serverId, from, to, stopCommand],
    );
    return rows.length > 0;
  }

  latest(serverId: string, event: string, manager: EntityManager = this.rows.manager): Promise<ServerActivityEntity | null> {
    return manager.getRepository(ServerActivityEntity).findOne({ where: { serverId, event }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Newest first; `event` is an exact name, or a prefix ending in `.*` (`server.schedule.*`). A page past the middle is read from the end. */
  async page(serverId: string, page: Page, event?: string): Promise<[ServerActivityEntity[], number]> {
    const where = ServerActivityLog.where(serverId, event);
    const total = event === undefined ? await this.countOf(serverId) : await this.countWhere(where);
    const at = fromNearestEnd(page, total);
    if (at.take === 0) {
      return [[], total];
    }
    const order = at.reversed ? 'ASC' : 'DESC';
    const query = this.rows.createQueryBuilder('a');
    if (at.skip > 0) {
      // The offset is walked over the index alone, then only the page's rows are read.
      const ids = query.subQuery().select('i.id').from(ServerActivityEntity, 'i').where(where).orderBy('i.created_at', order).addOrderBy('i.id', order).offset(at.skip).limit(at.take);
      query.where(`a.id IN ${ids.getQuery()}`).setParameters(ids.getParameters());
    } else {
      query.where(where).limit(at.take);
    }
    const rows = await query.orderBy('a.created_at', order).addOrderBy('a.id', order).getMany();
    return [at.reversed ? rows.reverse() : rows, total];
  }

  /** Up to `take` entries past `keyset` in its direction (newest first going `next`), each with its cursor key. */
  async keysetPage(serverId: string, keyset: Keyset | null, take: number, event?: string): Promise<{ row: ServerActivityEntity; key: string[] }[]> {
    const clause = keysetClause(
      [
        { column: 'a.created_at', cast: 'timestamptz' },
        { column: 'a.id', cast: 'bigint' },
      ],
      keyset,
    );
    let qb = this.rows.createQueryBuilder('a').where(ServerActivityLog.where(serverId, event));
    if (clause.where) {
      qb = qb.andWhere(clause.where, clause.params);
    }
    qb = qb.addSelect(keysetTimestamp('a.created_at'), 'cursor_at').orderBy('a.created_at', clause.order).addOrderBy('a.id', clause.order).limit(take);
    const { entities, raw } = await qb.getRawAndEntities<{ cursor_at: string }>();
    return entities.map((row, i) => ({ row, key: [raw[i].cursor_at, row.id] }));
  }

  /**
   * One retention batch (src/modules/retention/): deletes up to `limit` entries created before
   * `before` (any of them: the BRIN index on created_at finds them, it cannot order them) whose event
   * matches one of `patterns` (LIKE patterns) or, with `except`, none of them; how many it deleted.
   */
  async deleteOlder(before: Date, patterns: string[], except: boolean, limit: number): Promise<number> {
    const [{ n }] = await this.rows.query<{ n: number }[]>(
      // = ANY(ARRAY(...)): the ids are found through created_at, then deleted through the primary key (a join may scan the table).
      `WITH gone AS (
         DELETE FROM server_activity WHERE id = ANY(ARRAY(
           SELECT id FROM server_activity WHERE created_at < $1 AND ${except ? 'NOT ' : ''}(event LIKE ANY($2::text[])) LIMIT $3))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, patterns, limit],
    );
    return n;
  }

  /** How many entries a server has, from the counts the triggers keep (migration AddLogCursorsAndCounts). */
  private async countOf(serverId: string): Promise<number> {
    const [{ total }] = await this.counts.query<{ total: string | null }[]>('SELECT sum(n)::text AS total FROM server_activity_count WHERE server_id = $1', [serverId]);
    return Number(total ?? 0);
  }

  /** count(*), not TypeORM's count(DISTINCT id): the (server_id, event...) index answers it alone. */
  private async countWhere(where: FindOptionsWhere<ServerActivityEntity>): Promise<number> {
    const row = await this.rows.createQueryBuilder('a').select('count(*)::int', 'n').where(where).getRawOne<{ n: number }>();
    return row?.n ?? 0;
  }

  private static where(serverId: string, event?: string): FindOptionsWhere<ServerActivityEntity> {
    const where: FindOptionsWhere<ServerActivityEntity> = { serverId };
    if (event !== undefined) {
      // `_` and `%` are LIKE wildcards; the prefix matches only literally.
      where.event = event.endsWith('.*') ? Like(`${likeLiteral(event.slice(0, -1))}%`) : event;
    }
    return where;
  }

  private async write(entry: Partial<ServerActivityEntity>, manager: EntityManager = this.rows.manager): Promise<void> {
    const repo = manager.getRepository(ServerActivityEntity);
    await repo.save(repo.create(entry));
  }
}
