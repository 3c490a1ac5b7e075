import { UserEntity } from 'src/modules/users/user.entity';

export class UserResponseDto {
  id!: string;
  uuid!: string;
  username!: string;
  email!: string;
  name!: string;
  admin!: boolean;
  twoFactorEnabled!: boolean;
  createdAt!: string;
  updatedAt!: string;
}

export const toUserResponse = (user: UserEntity): UserResponseDto => ({
  id: user.id,
  uuid: user.uuid,
  username: user.username,
  email: user.email,
  name: user.name,
  admin: user.admin,
  twoFactorEnabled: user.twoFactorEnabled,
  createdAt: user.createdAt.toISOString(),
  updatedAt: user.updatedAt.toISOString(),
});

/** A user as the administration sees it: the public fields, whether sign-in is suspended, and the id an outside system (billing) knows it by. */
export class AdminUserResponseDto extends UserResponseDto {
  suspended!: boolean;
  externalId!: string | null;
  /** When a server owner's invitation created the account (adding its address as a subuser); null otherwise. */
  invitedAt!: string | null;
  /** The last sign-in that opened a session; null if the account never signed in (since the panel started recording it). */
  lastSignInAt!: string | null;
  /** Pterodactyl's language of the account (`en` unless its application API or an import set another). */
  language!: string;
  /** The administrator roles the account holds (docs/permissions.md#administrator-roles). */
  roleIds!: string[];
  /** Whether the user has a passkey (a second factor too: the two-factor reset removes them). */
  hasPasskey!: boolean;
}

export const toAdminUserResponse = (user: UserEntity): AdminUserResponseDto => ({
  ...toUserResponse(user),
  roleIds: user.adminRoleIds.map(String),
  suspended: user.suspended,
  externalId: user.externalId,
  invitedAt: user.invitedAt?.toISOString() ?? null,
  lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
  language: user.language,
  hasPasskey: user.hasPasskey,
});
