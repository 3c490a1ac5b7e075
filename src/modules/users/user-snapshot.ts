import { UserEntity } from 'src/modules/users/user.entity';

/**
 * A user as the credential caches keep it (src/common/hot-cache/hot-caches.ts): plain values, dates
 * as epoch milliseconds, shared by every reader and never changed.
 */
export interface UserSnapshot {
  readonly id: string;
  readonly uuid: string;
  readonly username: string;
  readonly email: string;
  readonly name: string;
  readonly externalId: string | null;
  readonly language: string;
  readonly passwordHash: string;
  readonly admin: boolean;
  readonly adminRoleIds: readonly string[];
  readonly twoFactorEnabled: boolean;
  readonly hasPasskey: boolean;
  readonly suspended: boolean;
  readonly invitedAt: number | null;
  readonly lastSignInAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export const userSnapshot = (user: UserEntity): UserSnapshot => ({
  id: user.id,
  uuid: user.uuid,
  username: user.username,
  email: user.email,
  name: user.name,
  externalId: user.externalId,
  language: user.language,
  passwordHash: user.passwordHash,
  admin: user.admin,
  adminRoleIds: [...user.adminRoleIds],
  twoFactorEnabled: user.twoFactorEnabled,
  hasPasskey: user.hasPasskey,
  suspended: user.suspended,
  invitedAt: user.invitedAt?.getTime() ?? null,
  lastSignInAt: user.lastSignInAt?.getTime() ?? null,
  createdAt: user.createdAt.getTime(),
  updatedAt: user.updatedAt.getTime(),
});

/** A request's own user row, built from the snapshot (the request may change it; the cache is not touched). */
export const userFromSnapshot = (user: UserSnapshot): UserEntity =>
  Object.assign(new UserEntity(), {
    ...user,
    adminRoleIds: [...user.adminRoleIds],
    invitedAt: user.invitedAt === null ? null : new Date(user.invitedAt),
    lastSignInAt: user.lastSignInAt === null ? null : new Date(user.lastSignInAt),
    createdAt: new Date(user.createdAt),
    updatedAt: new Date(user.updatedAt),
  });
