import { OmitType } from '@nestjs/swagger';
import { toUserResponse, UserResponseDto } from 'src/modules/users/dto/user-response.dto';
import { UserEntity } from 'src/modules/users/user.entity';

/** The caller's own account: the admin view of a user without `updatedAt`, and whether it has a passkey. */
export class AccountResponseDto extends OmitType(UserResponseDto, ['updatedAt'] as const) {
  /** Whether the account has a passkey (docs/api.md#passkeys): sign-in by password then asks for a second step. */
  hasPasskey!: boolean;
}

export const toAccountResponse = (user: UserEntity): AccountResponseDto => {
  const { updatedAt: _updatedAt, ...account } = toUserResponse(user);
  return { ...account, hasPasskey: user.hasPasskey };
};
