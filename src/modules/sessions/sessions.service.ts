import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { randomString, sha256Hex, URL_SAFE_ALPHABET } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionError } from 'src/modules/sessions/sessions.errors';
import { SessionsRepository } from 'src/modules/sessions/sessions.repository';
import { UserEntity } from 'src/modules/users/user.entity';

type CachedSession = SessionEntity & { user: UserEntity };

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    sessions: CachedSession;
  }
}

const HOUR = 3_600_000;

/** Session rules (docs/api.md#sessions). */
const SESSION_POLICY = {
  lifetimeMs: 14 * 24 * HOUR,
  refreshAfterMs: 12 * HOUR,
  freshForMs: 5 * 60_000,
  maxPerUser: 5,
  // last_seen_at is written at most this often, so reads do not turn into writes.
  lastSeenResolutionMs: 60_000,
} as const;

const isExpired = (session: SessionEntity, now: Date): boolean => session.expiresAt.getTime() <= now.getTime();

const sessionTags = (session: CachedSession): string[] => [`session:${session.id}`, `user:${session.userId}`];

interface ResolvedSession {
  session: SessionEntity & { user: UserEntity };
  /** True when this request extended the session, so the cookie must be sent again. */
  refreshed: boolean;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    private readonly caches: HotCaches,
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

  /**
   * Looks a cookie value up; expired sessions are removed and resolve to null.
   *
   * Served from HotCaches when warm (no query): signing out, deleting the session or changing its
   * user drops the cached copy. A cached copy that looks expired is read again first (another
   * process may have refreshed it); the refresh and "last seen" writes update the cached copy.
   */
  async resolve(token: string): Promise<ResolvedSession | null> {
    const tokenHash = sha256Hex(token);
    const now = this.clock.now();
    const session = await this.lookup(tokenHash, now);
    if (!session) {
      return null;
    }
    if (isExpired(session, now)) {
      await this.sessions.delete(session.id);
      return null;
    }
    if (now.getTime() - session.refreshedAt.getTime() >= SESSION_POLICY.refreshAfterMs) {
      const changes = { refreshedAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_POLICY.lifetimeMs) };
      await this.sessions.update(session.id, changes);
      this.remember(tokenHash, session, changes);
      return { session, refreshed: true };
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_POLICY.lastSeenResolutionMs) {
      await this.sessions.update(session.id, { lastSeenAt: now });
      this.remember(tokenHash, session, { lastSeenAt: now });
    }
    return { session, refreshed: false };
  }

  /**
   * The live session a cookie value names, without extending it or noting it as seen: for a
   * connection that outlives its request (the live-status WebSocket) checking it is still signed in.
   */
  async peek(token: string): Promise<CachedSession | null> {
    const now = this.clock.now();
    const session = await this.lookup(sha256Hex(token), now);
    return session && !isExpired(session, now) ? session : null;
  }

  private async lookup(tokenHash: string, now: Date): Promise<CachedSession | null> {
    const cached = this.caches.sessions.get(tokenHash);
    return cached && !isExpired(cached, now) ? cached : this.caches.sessions.load(tokenHash, () => this.findWithUser(tokenHash), sessionTags);
  }

  private async findWithUser(tokenHash: string): Promise<CachedSession | null> {
    const session = await this.sessions.findByTokenHash(tokenHash);
    return session?.user ? (session as CachedSession) : null;
  }

  /** Bookkeeping this request wrote: the caller's copy and the cached one follow (the subscriber ignores such writes). */
  private remember(tokenHash: string, session: CachedSession, changes: Partial<Pick<SessionEntity, 'refreshedAt' | 'lastSeenAt' | 'expiresAt'>>): void {
    Object.assign(session, changes);
    this.caches.sessions.patch(tokenHash, (stored) => Object.assign(stored, changes));
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

  /** Ends every session of the user but `exceptId`; with `manager`, inside the caller's transaction. */
  revokeAll(userId: string, exceptId?: string, manager?: EntityManager): Promise<number> {
    return this.sessions.deleteForUser(userId, exceptId, manager);
  }
}
