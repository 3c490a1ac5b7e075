import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { Clock } from 'src/common/clock';
import { ALPHANUMERIC, randomString, sha256Hex } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import {
  APPLICATION_RESOURCES,
  ApplicationPermissions,
  ApplicationResource,
  PterodactylKeyEntity,
  PterodactylKeyType,
} from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';
import { PterodactylKeyError } from 'src/modules/pterodactyl/keys/pterodactyl-keys.errors';
import { PterodactylKeysRepository } from 'src/modules/pterodactyl/keys/pterodactyl-keys.repository';
import { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';
import { userFromSnapshot, UserSnapshot, userSnapshot } from 'src/modules/users/user-snapshot';

/** Pterodactyl's key format (app/Models/ApiKey.php): a 16-character identifier, then a 32-character token. */
const PTERODACTYL_KEY_POLICY = {
  identifierLength: 16,
  tokenLength: 32,
  maxPerUser: 25,
  // last_used_at is written at most this often.
  lastUsedResolutionMs: 60_000,
} as const;

const PREFIX: Record<PterodactylKeyType, string> = {
  [PterodactylKeyType.CLIENT]: 'ptlc_',
  [PterodactylKeyType.APPLICATION]: 'ptla_',
};

/** AdminAcl's bits. */
const READ = 1;
const WRITE = 2;

interface NewPterodactylKey {
  memo: string;
  allowedIps?: string[];
  /** Application keys: resource → 0..3. */
  permissions?: Partial<Record<ApplicationResource, number>>;
}

export type ResolvedPterodactylKey = PterodactylKeyEntity & { user: UserEntity };

/** What the cache keeps of a key and its owner: plain values, dates as epoch milliseconds. */
interface PterodactylKeySnapshot {
  readonly id: string;
  readonly userId: string;
  readonly keyType: PterodactylKeyType;
  readonly identifier: string;
  readonly tokenHash: string;
  readonly memo: string;
  readonly allowedIps: readonly string[];
  readonly permissions: Readonly<ApplicationPermissions>;
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
  readonly user: UserSnapshot;
}

declare module 'src/common/hot-cache/hot-caches' {
  interface HotCacheEntries {
    pterodactylKeys: PterodactylKeySnapshot;
  }
}

const snapshotOf = (key: ResolvedPterodactylKey): PterodactylKeySnapshot => ({
  id: key.id,
  userId: key.userId,
  keyType: key.keyType,
  identifier: key.identifier,
  tokenHash: key.tokenHash,
  memo: key.memo,
  allowedIps: [...key.allowedIps],
  permissions: { ...key.permissions },
  lastUsedAt: key.lastUsedAt?.getTime() ?? null,
  createdAt: key.createdAt.getTime(),
  user: userSnapshot(key.user),
});

/** The request's own key row (with its owner), built from the snapshot: the request may change it, the cache is not touched. */
const keyFromSnapshot = (key: PterodactylKeySnapshot): ResolvedPterodactylKey =>
  Object.assign(new PterodactylKeyEntity(), {
    ...key,
    allowedIps: [...key.allowedIps],
    permissions: { ...key.permissions },
    lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt),
    createdAt: new Date(key.createdAt),
    user: userFromSnapshot(key.user),
  });

const keyTags = (key: PterodactylKeySnapshot): string[] => [`pterodactyl_api_key:${key.id}`, `user:${key.userId}`];

/** Whether `ip` is one of `allowed` (addresses or CIDR ranges); an empty list allows any address. */
export const ipAllowed = (allowed: readonly string[], ip: string): boolean => {
  if (allowed.length === 0) {
    return true;
  }
  if (!ipaddr.isValid(ip)) {
    return false;
  }
  const address = ipaddr.process(ip);
  return allowed.some((entry) => {
    try {
      const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), -1];
      if (range.kind() !== address.kind()) {
        return false;
      }
      return bits < 0 ? range.toString() === address.toString() : address.match([range, bits] as never);
    } catch {
      return false;
    }
  });
};

/** Whether an application key's permissions allow `access` on `resource`. */
export const keyAllows = (permissions: ApplicationPermissions, resource: ApplicationResource, access: 'read' | 'write'): boolean =>
  ((permissions[`r_${resource}`] ?? 0) & (access === 'read' ? READ : WRITE)) !== 0;

@Injectable()
export class PterodactylKeysService {
  constructor(
    private readonly keys: PterodactylKeysRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly caches: HotCaches,
  ) {}

  async create(owner: UserEntity, keyType: PterodactylKeyType, input: NewPterodactylKey): Promise<{ key: PterodactylKeyEntity; secret: string }> {
    const prefix = PREFIX[keyType];
    const identifier = prefix + randomString(PTERODACTYL_KEY_POLICY.identifierLength - prefix.length, ALPHANUMERIC);
    const token = randomString(PTERODACTYL_KEY_POLICY.tokenLength, ALPHANUMERIC);
    const permissions: ApplicationPermissions =
      keyType === PterodactylKeyType.APPLICATION
        ? Object.fromEntries(APPLICATION_RESOURCES.map((r) => [`r_${r}`, input.permissions?.[r] ?? 0]))
        : {};
    const key = await this.keys.transaction(async (manager) => {
      await this.users.lockForUpdate(owner.id, manager);
      return this.keys.insertCapped(
        {
          userId: owner.id,
          keyType,
          identifier,
          tokenHash: sha256Hex(token),
          memo: input.memo,
          allowedIps: [...new Set(input.allowedIps ?? [])],
          permissions,
          lastUsedAt: null,
          createdAt: this.clock.now(),
        },
        PTERODACTYL_KEY_POLICY.maxPerUser,
        manager,
      );
    });
    if (!key) {
      throw new AppException(PterodactylKeyError.LIMIT_REACHED);
    }
    return { key, secret: identifier + token };
  }

  list(userId: string, keyType: PterodactylKeyType): Promise<PterodactylKeyEntity[]> {
    return this.keys.findForUser(userId, keyType);
  }

  async revoke(userId: string, keyType: PterodactylKeyType, identifier: string): Promise<void> {
    if (!(await this.keys.deleteForUser(userId, keyType, identifier))) {
      throw new AppException(PterodactylKeyError.NOT_FOUND);
    }
  }

  /**
   * The key a bearer token stands for, with its owner; null for anything that is not a live key.
   *
   * Served from HotCaches when warm (no query), by identifier; the token is checked against the
   * cached hash every time. A revocation, any other change of the key, or a change of its owner
   * (admin, suspended, deleted) drops the cached copy, in this process at once and in the others
   * through the change feed. A wrong token is never cached: the next try reads the database again.
   */
  async resolve(bearer: string): Promise<ResolvedPterodactylKey | null> {
    const { identifierLength, tokenLength } = PTERODACTYL_KEY_POLICY;
    if (bearer.length !== identifierLength + tokenLength) {
      return null;
    }
    const identifier = bearer.slice(0, identifierLength);
    const snapshot = await this.caches.pterodactylKeys.getOrLoad(identifier, () => this.findWithUser(identifier), keyTags);
    if (!snapshot) {
      return null;
    }
    const presented = Buffer.from(sha256Hex(bearer.slice(identifierLength)), 'utf8');
    if (!timingSafeEqual(presented, Buffer.from(snapshot.tokenHash, 'utf8'))) {
      return null;
    }
    return keyFromSnapshot(snapshot);
  }

  private async findWithUser(identifier: string): Promise<PterodactylKeySnapshot | null> {
    const key = await this.keys.findByIdentifier(identifier);
    return key ? snapshotOf(key) : null;
  }

  /** Notes that a key was let through (at most once a minute): only after every check passed, its address too. */
  async markUsed(key: ResolvedPterodactylKey): Promise<void> {
    const now = this.clock.now();
    if (key.lastUsedAt === null || now.getTime() - key.lastUsedAt.getTime() >= PTERODACTYL_KEY_POLICY.lastUsedResolutionMs) {
      await this.keys.touch(key.id, now);
      key.lastUsedAt = now;
      // Bookkeeping: the cached snapshot follows, instead of being dropped (the subscriber ignores this write).
      this.caches.pterodactylKeys.patch(key.identifier, (stored) => ({ ...stored, lastUsedAt: now.getTime() }));
    }
  }
}
