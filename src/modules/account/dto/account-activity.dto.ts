import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { CursorPaginationQueryDto } from 'src/common/http/cursor';
import { Optional } from 'src/common/validation/decorators';
import type { AuditLogResponseDto } from 'src/modules/audit/dto/audit-log-response.dto';

export class AccountActivityQueryDto extends CursorPaginationQueryDto {
  /** Keeps the entries of this event only (`user.password_changed`). */
  @Optional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/, { message: 'event must be an event name such as user.password_changed' })
  event?: string;
}

class AccountActivityActorDto {
  id!: string | null;
  username!: string | null;
}

/** One event of the caller's own account, in the shape of a server's activity. */
export class AccountActivityDto {
  id!: string;
  /** e.g. `user.password_changed`, `user.two_factor_enabled`. */
  event!: string;
  /** The caller, as recorded then. */
  actor!: AccountActivityActorDto | null;

  /** What changed, as `before` and `after` (an e-mail change has both addresses). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;

  ip!: string | null;
  /** `session`, or the identifier of the API key used. */
  via!: string | null;
  timestamp!: string;
}

export const toAccountActivity = (e: AuditLogResponseDto): AccountActivityDto => ({
  id: e.id,
  event: e.action,
  actor: { id: e.actor.id, username: e.actor.username },
  metadata: { ...e.changes },
  ip: e.ip,
  via: e.actor.via,
  timestamp: e.createdAt,
});
