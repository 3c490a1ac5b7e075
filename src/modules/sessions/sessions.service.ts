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
import { UsersService } from 'src/modules/users/users.service';
import { userFromSnapshot, UserSnapshot, userSnapshot } from 'src/modules/users/user-snapshot';

/** What the cache keeps of a session and its user: plain values, dates as epoch milliseconds. */
interface SessionSnapshot {
  readonly id: string;
  readonly userId: string;
  readonly tokenHash: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly createdAt: number;
  readonly refreshedAt: number;
  readonly lastSeenAt: number;
  readonly expiresAt: number;
  readonly user: UserSnapshot;
}

declare module 'src/common/auth/auth-context' {
  interface AuthContextRows {
    session: SessionEntity;
  }
}

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    sessions: SessionSnapshot;
  }
}

type Marks = Pick<SessionSnapshot, 'refreshedAt' | 'lastSeenAt' | 'expiresAt'>;

const snapshotOf = (session: SessionEntity & { user: UserEntity }): SessionSnapshot => ({
  id: session.id,
  userId: session.userId,
  tokenHash: session.tokenHash,
  ip: session.ip,
  userAgent: session.userAgent,
  createdAt: session.createdAt.getTime(),
  refreshedAt: session.refreshedAt.getTime(),
  lastSeenAt: session.lastSeenAt.getTime(),
  expiresAt: session.expiresAt.getTime(),
  user: userSnapshot(session.user),
});

/** The request's own session row (with its user), built from the snapshot. */
const sessionFromSnapshot = (session: SessionSnapshot): SessionEntity & { user: UserEntity } =>
  Object.assign(new SessionEntity(), {
    ...session,
    createdAt: new Date(session.createdAt),
    refreshedAt: new Date(session.refreshedAt),
    lastSeenAt: new Date(session.lastSeenAt),
    expiresAt: new Date(session.expiresAt),
    user: userFromSnapshot(session.user),
  });

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

const isExpired = (session: SessionSnapshot, now: Date): boolean => session.expiresAt <= now.getTime();

const sessionTags = (session: SessionSnapshot): string[] => [`session:${session.id}`, `user:${session.userId}`];

interface ResolvedSession {
  session: SessionEntity & { user: UserEntity };
  /** True when this request extended the session, so the cookie must be sent again. */
  refreshed: boolean;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersService,
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
    // Under a lock on the user row, so that concurrent sign-ins cannot both keep a sixth session.
    await this.sessions.transaction(async (manager) => {
      await this.users.lockForUpdate(user.id, manager);
      await this.sessions.insertCapped(session, SESSION_POLICY.maxPerUser, now, manager);
    });
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
    const snapshot = await this.lookup(tokenHash, now);
    if (!snapshot) {
      return null;
    }
    if (isExpired(snapshot, now)) {
      await this.sessions.delete(snapshot.id);
      return null;
    }
    if (now.getTime() - snapshot.refreshedAt >= SESSION_POLICY.refreshAfterMs) {
      const at = now.getTime();
      const marks = { refreshedAt: at, lastSeenAt: at, expiresAt: at + SESSION_POLICY.lifetimeMs };
      await this.sessions.update(snapshot.id, { refreshedAt: now, lastSeenAt: now, expiresAt: new Date(marks.expiresAt) });
      return { session: this.remember(tokenHash, snapshot, marks), refreshed: true };
    }
    if (now.getTime() - snapshot.lastSeenAt >= SESSION_POLICY.lastSeenResolutionMs) {
      await this.sessions.update(snapshot.id, { lastSeenAt: now });
      return { session: this.remember(tokenHash, snapshot, { lastSeenAt: now.getTime() }), refreshed: false };
    }
    return { session: sessionFromSnapshot(snapshot), refreshed: false };
  }

  /**
   * The live session a cookie value names, without extending it or noting it as seen: for a
   * connection that outlives its request (the live-status WebSocket) checking it is still signed in.
   */
  async peek(token: string): Promise<(SessionEntity & { user: UserEntity }) | null> {
    const now = this.clock.now();
    const snapshot = await this.lookup(sha256Hex(token), now);
    return snapshot && !isExpired(snapshot, now) ? sessionFromSnapshot(snapshot) : null;
  }

  private async lookup(tokenHash: string, now: Date): Promise<SessionSnapshot | null> {
    const cached = this.caches.sessions.get(tokenHash);
    return cached && !isExpired(cached, now) ? cached : this.caches.sessions.load(tokenHash, () => this.findWithUser(tokenHash), sessionTags);
  }

  private async findWithUser(tokenHash: string): Promise<SessionSnapshot | null> {
    const session = await this.sessions.findByTokenHash(tokenHash);
    return session?.user ? snapshotOf({ ...session, user: session.user }) : null;
  }

  /** Bookkeeping this request wrote: the cached snapshot follows (the subscriber ignores such writes), and so does the caller's row. */
  private remember(tokenHash: string, snapshot: SessionSnapshot, marks: Partial<Marks>): SessionEntity & { user: UserEntity } {
    this.caches.sessions.patch(tokenHash, (stored) => ({ ...stored, ...marks }));
    return sessionFromSnapshot({ ...snapshot, ...marks });
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
