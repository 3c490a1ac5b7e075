import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, ILike, Repository } from 'typeorm';
import type { Actor } from 'src/modules/auth/current-actor.decorator';
import { Clock } from 'src/common/clock';
import { Page, paginated, Paginated } from 'src/common/http/pagination';
import { likeLiteral } from 'src/database/like';
import { AuditChanges, AuditLogEntity } from 'src/modules/audit/audit-log.entity';
import { AuditLogResponseDto, toAuditLogResponse } from 'src/modules/audit/dto/audit-log-response.dto';

interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  changes?: AuditChanges;
}

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

  async list(filter: AuditFilter, page: Page): Promise<Paginated<AuditLogResponseDto>> {
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
    const [rows, total] = await this.repo.findAndCount({ where, order: { id: 'DESC' }, skip: page.skip, take: page.perPage });
    return paginated(rows.map(toAuditLogResponse), total, page);
  }

  /**
   * What a user did to their own account (password, e-mail, two-factor…), newest first unless
   * `oldestFirst`: never another user's entries, not even an administrator's about this account,
   * nor this user's actions on anything else. `event` matches anywhere in the action, any case.
   */
  async ownAccountEvents(userId: string, filter: { event?: string; oldestFirst?: boolean }, page: Page): Promise<Paginated<AuditLogResponseDto>> {
    const where: FindOptionsWhere<AuditLogEntity> = { actorId: userId, targetType: 'user', targetId: userId };
    if (filter.event) {
      where.action = ILike(`%${likeLiteral(filter.event)}%`);
    }
    const order = filter.oldestFirst ? 'ASC' : 'DESC';
    const [rows, total] = await this.repo.findAndCount({ where, order: { createdAt: order, id: order }, skip: page.skip, take: page.perPage });
    return paginated(rows.map(toAuditLogResponse), total, page);
  }
}
