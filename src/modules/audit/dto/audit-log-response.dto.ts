import { AuditLogEntity } from 'src/modules/audit/audit-log.entity';

class AuditTargetDto {
  /** e.g. `server`, `egg_variable`. */
  type!: string;
  id!: string;
  /** Its name now, or the one the entry recorded when it is gone; null when neither is known. */
  name!: string | null;
  /** The id of what it belongs to, where its page is its parent's: an egg variable's egg. */
  parentId!: string | null;
}

export class AuditLogResponseDto {
  id!: string;
  actor!: { id: string | null; username: string | null; via: string | null };
  action!: string;
  target!: AuditTargetDto;
  changes!: { before?: Record<string, unknown>; after?: Record<string, unknown> };
  ip!: string | null;
  createdAt!: string;
}

export const toAuditLogResponse = (row: AuditLogEntity, names: { name: string | null; parentId: string | null } = { name: null, parentId: null }): AuditLogResponseDto => ({
  id: row.id,
  actor: { id: row.actorId, username: row.actorUsername, via: row.via },
  action: row.action,
  target: { type: row.targetType, id: row.targetId, name: names.name, parentId: names.parentId },
  changes: row.changes,
  ip: row.ip,
  createdAt: row.createdAt.toISOString(),
});
