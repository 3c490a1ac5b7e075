import { Injectable } from '@nestjs/common';
import { AdminScope } from 'src/common/auth/admin-scope';
import { Clock } from 'src/common/clock';
import { ALPHANUMERIC, randomString, sha256Hex, URL_SAFE_ALPHABET } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { ApiKeyEntity } from 'src/modules/api-keys/api-key.entity';
import { ApiKeyError } from 'src/modules/api-keys/api-keys.errors';
import { ApiKeysRepository } from 'src/modules/api-keys/api-keys.repository';
import { CreateApiKeyDto } from 'src/modules/api-keys/dto/create-api-key.dto';
import { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';
import { userFromSnapshot, UserSnapshot, userSnapshot } from 'src/modules/users/user-snapshot';

/** What the cache keeps of a key and its owner: plain values, dates as epoch milliseconds. */
interface ApiKeySnapshot {
  readonly id: string;
  readonly identifier: string;
  readonly userId: string;
  readonly name: string;
  readonly keyHash: string;
  readonly start: string;
  readonly permissions: readonly string[];
  readonly expiresAt: number;
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
  readonly user: UserSnapshot;
}

declare module 'src/common/auth/auth-context' {
  interface AuthContextRows {
    apiKey: ApiKeyEntity;
  }
}

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    apiKeys: ApiKeySnapshot;
  }
}

const snapshotOf = (key: ApiKeyEntity & { user: UserEntity }): ApiKeySnapshot => ({
  id: key.id,
  identifier: key.identifier,
  userId: key.userId,
  name: key.name,
  keyHash: key.keyHash,
  start: key.start,
  permissions: [...key.permissions],
  expiresAt: key.expiresAt.getTime(),
  lastUsedAt: key.lastUsedAt?.getTime() ?? null,
  createdAt: key.createdAt.getTime(),
  user: userSnapshot(key.user),
});

/** The request's own key row (with its owner), built from the snapshot. */
const keyFromSnapshot = (key: ApiKeySnapshot): ApiKeyEntity & { user: UserEntity } =>
  Object.assign(new ApiKeyEntity(), {
    ...key,
    permissions: [...key.permissions],
    expiresAt: new Date(key.expiresAt),
    lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt),
    createdAt: new Date(key.createdAt),
    user: userFromSnapshot(key.user),
  });

const DAY = 86_400_000;

export const API_KEY_POLICY = {
  length: 32,
  startLength: 6,
  identifierLength: 16,
  defaultDays: 90,
  maxPerUser: 25,
  // last_used_at is written at most this often.
  lastUsedResolutionMs: 60_000,
} as const;

const isExpired = (key: ApiKeySnapshot, now: Date): boolean => key.expiresAt <= now.getTime();

const keyTags = (key: ApiKeySnapshot): string[] => [`api_key:${key.id}`, `user:${key.userId}`];


@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly caches: HotCaches,
    private readonly roles: AdminRoles,
  ) {}

  /** The admin scopes a user holds: all of them for a full administrator, their roles' otherwise. */
  scopesOf(user: UserEntity): readonly AdminScope[] {
    return this.roles.scopesOf(user);
  }

  /**
   * Creates a key. `ceiling` is what the caller holds: the owner's scopes, or, when a key creates a
   * key, that key's scopes, so that no key can mint a stronger one.
   */
  async create(owner: UserEntity, dto: CreateApiKeyDto, ceiling: Iterable<AdminScope>): Promise<{ key: ApiKeyEntity; secret: string }> {
    const ownerScopes = this.scopesOf(owner);
    const held = [...ceiling].filter((s) => ownerScopes.includes(s));
    const permissions = [...new Set(dto.permissions ?? held)];
    if (permissions.some((p) => !(held as readonly string[]).includes(p))) {
      throw new AppException(ApiKeyError.SCOPE_EXCEEDS_OWNER);
    }
    const now = this.clock.now();
    const secret = randomString(API_KEY_POLICY.length, URL_SAFE_ALPHABET);
    // The count and the insert run under a lock on the owner's row: concurrent creations cannot both take the last slot.
    const key = await this.keys.transaction(async (manager) => {
      await this.users.lockForUpdate(owner.id, manager);
      return this.keys.insertCapped(
        {
          identifier: randomString(API_KEY_POLICY.identifierLength, ALPHANUMERIC),
          userId: owner.id,
          name: dto.name,
          keyHash: sha256Hex(secret),
          start: secret.slice(0, API_KEY_POLICY.startLength),
          permissions,
          expiresAt: new Date(now.getTime() + (dto.expiresInDays ?? API_KEY_POLICY.defaultDays) * DAY),
          lastUsedAt: null,
          createdAt: now,
        },
        API_KEY_POLICY.maxPerUser,
        manager,
      );
    });
    if (!key) {
      throw new AppException(ApiKeyError.LIMIT_REACHED);
    }
    return { key, secret };
  }

  /**
   * Resolves a presented key. Expired and revoked keys resolve to null. The scopes are the key's
   * permissions that its owner still holds, so a demoted owner means a demoted key.
   *
   * Served from HotCaches when warm (no query): a revocation, a change of the key or of its owner
   * drops the cached copy. A cached copy that looks expired is read again before it is refused.
   */
  async resolve(secret: string): Promise<{ key: ApiKeyEntity & { user: UserEntity }; scopes: Set<AdminScope>; limited: boolean } | null> {
    if (secret.length === 0 || secret.length > 256) {
      return null;
    }
    const keyHash = sha256Hex(secret);
    const now = this.clock.now();
    const cached = this.caches.apiKeys.get(keyHash);
    const snapshot = cached && !isExpired(cached, now) ? cached : await this.caches.apiKeys.load(keyHash, () => this.findWithUser(keyHash), keyTags);
    if (!snapshot || isExpired(snapshot, now)) {
      return null;
    }
    const key = keyFromSnapshot(snapshot);
    if (snapshot.lastUsedAt === null || now.getTime() - snapshot.lastUsedAt >= API_KEY_POLICY.lastUsedResolutionMs) {
      await this.keys.touch(key.id, now);
      key.lastUsedAt = now;
      // Bookkeeping: the cached snapshot follows, instead of being dropped (the subscriber ignores this write).
      this.caches.apiKeys.patch(keyHash, (stored) => ({ ...stored, lastUsedAt: now.getTime() }));
    }
    const held = this.scopesOf(key.user);
    const scopes = new Set(held.filter((s) => key.permissions.includes(s)));
    return { key, scopes, limited: scopes.size < held.length };
  }

  private async findWithUser(keyHash: string): Promise<ApiKeySnapshot | null> {
    const key = await this.keys.findByKeyHash(keyHash);
    return key?.user ? snapshotOf({ ...key, user: key.user }) : null;
  }

  list(userId: string): Promise<ApiKeyEntity[]> {
    return this.keys.findForUser(userId);
  }

  async revoke(userId: string, identifier: string): Promise<void> {
    if (!(await this.keys.deleteForUser(userId, identifier))) {
      throw new AppException(ApiKeyError.NOT_FOUND);
    }
  }
}
