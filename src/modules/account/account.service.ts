import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { SessionsRepository } from 'src/modules/sessions/sessions.repository';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { UsersRepository } from 'src/modules/users/users.repository';

@Injectable()
export class AccountService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Changes the password and ends every other session of the user. */
  async changePassword(user: UserEntity, currentSessionId: string, currentPassword: string, newPassword: string): Promise<void> {
    await this.checkPassword(user, currentPassword);
    const passwordHash = await this.hasher.hash(newPassword);
    await this.users.transaction(async (manager) => {
      await this.users.update(user, { passwordHash }, manager);
      await this.sessions.deleteForUser(user.id, currentSessionId, manager);
    });
  }

  async changeEmail(user: UserEntity, email: string, password: string): Promise<UserEntity> {
    await this.checkPassword(user, password);
    return this.users.update(user, { email });
  }

  private async checkPassword(user: UserEntity, password: string): Promise<void> {
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      throw new AppException(UserError.INVALID_PASSWORD);
    }
  }
}
