import { OmitType } from '@nestjs/swagger';
import { toUserResponse, UserResponseDto } from 'src/modules/users/dto/user-response.dto';
import { UserEntity } from 'src/modules/users/user.entity';

/** The caller's own account: the admin view of a user without `updatedAt`. */
export class AccountResponseDto extends OmitType(UserResponseDto, ['updatedAt'] as const) {}

export const toAccountResponse = (user: UserEntity): AccountResponseDto => {
  const { updatedAt: _updatedAt, ...account } = toUserResponse(user);
  return account;
};
