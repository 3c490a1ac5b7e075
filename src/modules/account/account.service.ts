import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

@Injectable()
export class AccountService {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Changes the password and ends every other session of the user. */
  async changePassword(user: UserEntity, currentSessionId: string, currentPassword: string, newPassword: string): Promise<void> {
    await this.checkPassword(user, currentPassword);
    const passwordHash = await this.hasher.hash(newPassword);
    await this.users.changePassword(user, passwordHash, currentSessionId);
  }

  async changeEmail(user: UserEntity, email: string, password: string): Promise<UserEntity> {
    await this.checkPassword(user, password);
    return this.users.changeEmail(user, email);
  }

  private async checkPassword(user: UserEntity, password: string): Promise<void> {
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      throw new AppException(UserError.INVALID_PASSWORD);
    }
  }
}
