import { Injectable } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CursorPage, CursorPaginated } from 'src/common/http/cursor';
import { Page, Paginated } from 'src/common/http/pagination';
import { AccountActivityDto, toAccountActivity } from 'src/modules/account/dto/account-activity.dto';
import { AuditService } from 'src/modules/audit/audit.service';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import { UserEntity } from 'src/modules/users/user.entity';
import { UserError } from 'src/modules/users/users.errors';
import { UsersService } from 'src/modules/users/users.service';

/**
 * What a caller without a fresh session (a Pterodactyl client key) gives instead: Hatchery's own
 * routes ask a session signed in within 5 minutes, with both factors when two-factor sign-in is on.
 */
interface StepUp {
  twoFactorCode?: string;
}

@Injectable()
export class AccountService {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditService,
  ) {}

  /** The caller's own account events from the audit log, as the Pterodactyl client API's account/activity lists them. */
  async activity(user: UserEntity, page: Page | CursorPage, event?: string): Promise<Paginated<AccountActivityDto> | CursorPaginated<AccountActivityDto>> {
    if ('keyset' in page) {
      const { data, meta } = await this.audit.ownAccountEvents(user.id, { action: event }, page);
      return { data: data.map(toAccountActivity), meta };
    }
    const { data, meta } = await this.audit.ownAccountEvents(user.id, { action: event }, page);
    return { data: data.map(toAccountActivity), meta };
  }

  /**
   * Changes the password once the current one is given, and ends every other session of the user
   * (every session, when `currentSessionId` is undefined: the caller is a key, not a session).
   */
  async changePassword(
    user: UserEntity,
    currentSessionId: string | undefined,
    currentPassword: string,
    newPassword: string,
    actor: Actor,
    stepUp?: StepUp,
  ): Promise<void> {
    await this.check(user, currentPassword, stepUp);
    const passwordHash = await this.hasher.hash(newPassword);
    await this.users.changePassword(user, passwordHash, currentSessionId, actor);
  }

  async changeEmail(user: UserEntity, email: string, password: string, actor: Actor, stepUp?: StepUp): Promise<UserEntity> {
    await this.check(user, password, stepUp);
    return this.users.changeEmail(user, email, actor);
  }

  /** The password first, so that two-factor codes are guessed only by whoever knows it. */
  private async check(user: UserEntity, password: string, stepUp: StepUp | undefined): Promise<void> {
    if (!(await this.users.verifyPassword(user, password))) {
      throw new AppException(UserError.INVALID_PASSWORD);
    }
    if (stepUp) {
      await this.twoFactor.confirmSecondFactor(user, stepUp.twoFactorCode);
    }
  }
}
