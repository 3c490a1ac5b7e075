import { SessionEntity } from 'src/modules/sessions/session.entity';

export class SessionResponseDto {
  id!: string;
  ip!: string | null;
  userAgent!: string | null;
  createdAt!: string;
  lastSeenAt!: string;
  expiresAt!: string;
  current!: boolean;
}

export const toSessionResponse = (session: SessionEntity, currentId?: string): SessionResponseDto => ({
  id: session.id,
  ip: session.ip,
  userAgent: session.userAgent,
  createdAt: session.createdAt.toISOString(),
  lastSeenAt: session.lastSeenAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  current: session.id === currentId,
});
