import { OmitType } from '@nestjs/swagger';
import { toUserResponse, UserResponseDto } from 'src/modules/users/dto/user-response.dto';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';

/** The caller's own account: the admin view of a user without `updatedAt`, and whether it has a passkey and a password. */
export class AccountResponseDto extends OmitType(UserResponseDto, ['updatedAt'] as const) {
  /** Whether the account has a passkey (docs/api.md#passkeys): sign-in by password then asks for a second step. */
  hasPasskey!: boolean;
  /**
   * Whether the account has a password. One made through single sign-on has none: it asks for a link to
   * choose one (`POST /api/account/password/link`) instead of changing it, and changes its e-mail once it has one.
   */
  hasPassword!: boolean;
}

export const toAccountResponse = (user: UserEntity): AccountResponseDto => {
  const { updatedAt: _updatedAt, ...account } = toUserResponse(user);
  return { ...account, hasPasskey: user.hasPasskey, hasPassword: user.passwordHash !== PasswordHasher.NO_PASSWORD };
};
