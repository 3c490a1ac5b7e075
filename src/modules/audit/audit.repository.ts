import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, Repository, SelectQueryBuilder } from 'typeorm';
import { Keyset, keysetClause, keysetTimestamp } from 'src/common/http/cursor';
import { fromNearestEnd, Page } from 'src/common/http/pagination';
import { AuditLogCountEntity, AuditLogEntity } from 'src/modules/audit/audit-log.entity';

/** The audit log's orders: the admin list by id, a user's own events by time (then id). */
export type AuditSort = 'id' | 'time';

/** An entry with its sort key as a cursor keeps it. */
interface KeyedAuditRow {
  row: AuditLogEntity;
  key: string[];
}

const KEY_COLUMNS = {
  id: [{ column: 'a.id', cast: 'bigint' }],
  time: [
    { column: 'a.created_at', cast: 'timestamptz' },
    { column: 'a.id', cast: 'bigint' },
  ],
} as const;

@Injectable()
export class AuditRepository {
  constructor(
    @InjectRepository(AuditLogEntity) private readonly repo: Repository<AuditLogEntity>,
    @InjectRepository(AuditLogCountEntity) private readonly counts: Repository<AuditLogCountEntity>,
  ) {}

  /** Exact: unfiltered from the counter the triggers keep, filtered through the filter's index. */
  async count(where: FindOptionsWhere<AuditLogEntity>): Promise<number> {
    if (Object.keys(where).length === 0) {
      const [{ total }] = await this.counts.query<{ total: string | null }[]>('SELECT sum(n)::text AS total FROM audit_log_count');
      return Number(total ?? 0);
    }
    // count(*), not TypeORM's count(DISTINCT id): the filter's index answers it alone.
    const row = await this.repo.createQueryBuilder('a').select('count(*)::int', 'n').where(where).getRawOne<{ n: number }>();
    return row?.n ?? 0;
  }

  /** A page-number page, newest first (oldest first with `ascending`), read from its nearer end. */
  async page(where: FindOptionsWhere<AuditLogEntity>, sort: AuditSort, page: Page, ascending = false): Promise<[AuditLogEntity[], number]> {
    const total = await this.count(where);
    const at = fromNearestEnd(page, total);
    if (at.take === 0) {
      return [[], total];
    }
    const order = ascending !== at.reversed ? 'ASC' : 'DESC';
    const ordered = (qb: SelectQueryBuilder<AuditLogEntity>, alias: string) =>
      sort === 'id' ? qb.orderBy(`${alias}.id`, order) : qb.orderBy(`${alias}.created_at`, order).addOrderBy(`${alias}.id`, order);
    const query = this.repo.createQueryBuilder('a');
    if (at.skip > 0) {
      // The offset is walked over the ids alone (the filter's index, without the rows), then only the page's rows are read.
      const ids = ordered(query.subQuery().select('i.id').from(AuditLogEntity, 'i').where(where), 'i').offset(at.skip).limit(at.take);
      query.where(`a.id IN ${ids.getQuery()}`).setParameters(ids.getParameters());
    } else {
      query.where(where).limit(at.take);
    }
    const rows = await ordered(query, 'a').getMany();
    return [at.reversed ? rows.reverse() : rows, total];
  }

  /** Up to `take` entries past `keyset` in its direction (newest first going `next`), with their keys. */
  async keysetPage(where: FindOptionsWhere<AuditLogEntity>, sort: AuditSort, keyset: Keyset | null, take: number): Promise<KeyedAuditRow[]> {
    const clause = keysetClause(KEY_COLUMNS[sort], keyset);
    let qb: SelectQueryBuilder<AuditLogEntity> = this.repo.createQueryBuilder('a').where(where);
    if (clause.where) {
      qb = qb.andWhere(clause.where, clause.params);
    }
    if (sort === 'time') {
      qb = qb.addSelect(keysetTimestamp('a.created_at'), 'cursor_at').orderBy('a.created_at', clause.order);
    }
    qb = qb.addOrderBy('a.id', clause.order).limit(take);
    const { entities, raw } = await qb.getRawAndEntities<{ cursor_at?: string }>();
    return entities.map((row, i) => ({ row, key: sort === 'time' ? [raw[i].cursor_at ?? '', row.id] : [row.id] }));
  }

  /**
   * Deletes up to `limit` entries created before `before`, oldest first, whose action matches one of
   * `patterns` (LIKE patterns) or, with `except`, none of them; how many it deleted.
   */
  async deleteOlder(before: Date, patterns: string[], except: boolean, limit: number): Promise<number> {
    const [{ n }] = await this.repo.query<{ n: number }[]>(
      // = ANY(ARRAY(...)): the ids are found through created_at, then deleted through the primary key (a join may scan the table).
      `WITH gone AS (
         DELETE FROM audit_log WHERE id = ANY(ARRAY(
           SELECT id FROM audit_log WHERE created_at < $1 AND ${except ? 'NOT ' : ''}(action LIKE ANY($2::text[])) ORDER BY created_at LIMIT $3))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, patterns, limit],
    );
    return n;
  }
}
