import { AuditLogEntity } from 'src/modules/audit/audit-log.entity';

export class AuditLogResponseDto {
  id!: string;
  actor!: { id: string | null; username: string | null; via: string | null };
  action!: string;
  target!: { type: string; id: string };
  changes!: { before?: Record<string, unknown>; after?: Record<string, unknown> };
  ip!: string | null;
  createdAt!: string;
}

export const toAuditLogResponse = (row: AuditLogEntity): AuditLogResponseDto => ({
  id: row.id,
  actor: { id: row.actorId, username: row.actorUsername, via: row.via },
  action: row.action,
  target: { type: row.targetType, id: row.targetId },
  changes: row.changes,
  ip: row.ip,
  createdAt: row.createdAt.toISOString(),
});
