import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { randomString, sha256Hex, URL_SAFE_ALPHABET } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionError } from 'src/modules/sessions/sessions.errors';
import { SessionsRepository } from 'src/modules/sessions/sessions.repository';
import { UserEntity } from 'src/modules/users/user.entity';

const HOUR = 3_600_000;

/** Session rules of interface.md 5.2. */
export const SESSION_POLICY = {
  lifetimeMs: 14 * 24 * HOUR,
  refreshAfterMs: 12 * HOUR,
  freshForMs: 5 * 60_000,
  maxPerUser: 5,
  // last_seen_at is written at most this often, so reads do not turn into writes.
  lastSeenResolutionMs: 60_000,
} as const;

export interface ResolvedSession {
  session: SessionEntity & { user: UserEntity };
  /** True when this request extended the session, so the cookie must be sent again. */
  refreshed: boolean;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /** Starts a session; the returned token is the cookie value and is never stored. */
  async create(user: UserEntity, meta: { ip?: string; userAgent?: string }): Promise<{ session: SessionEntity; token: string }> {
    const now = this.clock.now();
    const token = randomString(43, URL_SAFE_ALPHABET);
    const session = Object.assign(new SessionEntity(), {
      id: randomUUID(),
      userId: user.id,
      tokenHash: sha256Hex(token),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      createdAt: now,
      refreshedAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_POLICY.lifetimeMs),
    });
    await this.sessions.insertCapped(session, SESSION_POLICY.maxPerUser, now);
    return { session, token };
  }

  /** Looks a cookie value up; expired sessions are removed and resolve to null. */
  async resolve(token: string): Promise<ResolvedSession | null> {
    const session = await this.sessions.findByTokenHash(sha256Hex(token));
    if (!session?.user) {
      return null;
    }
    const now = this.clock.now();
    if (session.expiresAt.getTime() <= now.getTime()) {
      await this.sessions.delete(session.id);
      return null;
    }
    const resolved = session as SessionEntity & { user: UserEntity };
    if (now.getTime() - session.refreshedAt.getTime() >= SESSION_POLICY.refreshAfterMs) {
      const changes = { refreshedAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_POLICY.lifetimeMs) };
      await this.sessions.update(session.id, changes);
      Object.assign(resolved, changes);
      return { session: resolved, refreshed: true };
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_POLICY.lastSeenResolutionMs) {
      await this.sessions.update(session.id, { lastSeenAt: now });
      resolved.lastSeenAt = now;
    }
    return { session: resolved, refreshed: false };
  }

  isFresh(session: SessionEntity): boolean {
    return this.clock.now().getTime() - session.createdAt.getTime() < SESSION_POLICY.freshForMs;
  }

  list(userId: string): Promise<SessionEntity[]> {
    return this.sessions.findForUser(userId);
  }

  async revoke(userId: string, id: string): Promise<void> {
    const session = await this.sessions.findOneForUser(userId, id);
    if (!session) {
      throw new AppException(SessionError.NOT_FOUND);
    }
    await this.sessions.delete(session.id);
  }

  revokeAll(userId: string, exceptId?: string): Promise<number> {
    return this.sessions.deleteForUser(userId, exceptId);
  }
}
