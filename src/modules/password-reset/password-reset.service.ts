import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BackgroundTasks } from 'src/common/background/background-tasks';
import { Clock } from 'src/common/clock';
import { sha256Hex } from 'src/common/crypto/tokens';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { MailOutcome, MailService } from 'src/modules/mail/mail.service';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { AuditService } from 'src/modules/audit/audit.service';
import { OwnPasswordLinkResponseDto, PasswordLinkResponseDto } from 'src/modules/password-reset/dto/password-reset.dto';
import { toMailDelivery } from 'src/modules/mail/dto/mail-delivery.dto';
import { invitationMail, passwordChangedMail, passwordResetMail, resetLink, setPasswordMail } from 'src/modules/password-reset/password-reset-mails';
import { PasswordResetError } from 'src/modules/password-reset/password-reset.errors';
import { PasswordResetRepository } from 'src/modules/password-reset/password-reset.repository';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

const RESET_TOKEN_LIFETIME_MS = 60 * 60_000;
/** An invitation waits longer than a reset: its reader did not ask for it and may not be at the keyboard. */
const INVITATION_TOKEN_LIFETIME_MS = 24 * 60 * 60_000;
const TOKEN_BYTES = 32;

/** Password reset by e-mailed link: one-hour, single-use tokens kept as SHA-256 only. */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly tokens: PasswordResetRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly mail: MailService,
    private readonly tasks: BackgroundTasks,
    private readonly clock: Clock,
    private readonly config: AppConfigService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Starts a reset for the address and returns at once. The lookup, the token and the mail all happen
   * after the response, so neither its content nor its timing tells whether the account exists.
   */
  request(email: string): void {
    this.tasks.run('password reset request', () => this.issue(email));
  }

  /** Sets the password from a valid token, then ends every session of the user. */
  async reset(token: string, newPassword: string): Promise<void> {
    const row = await this.tokens.findByHash(sha256Hex(token));
    if (!row || row.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new AppException(PasswordResetError.INVALID_TOKEN);
    }
    const passwordHash = await this.hasher.hash(newPassword);
    const user = await this.tokens.transaction(async (manager) => {
      // Only one of two concurrent uses deletes the row; the other is refused here.
      if (!(await this.tokens.consume(row.id, manager))) {
        throw new AppException(PasswordResetError.INVALID_TOKEN);
      }
      const owner = await this.users.findById(row.userId, manager);
      if (!owner) {
        throw new AppException(PasswordResetError.INVALID_TOKEN);
      }
      // Setting the password also voids the user's other reset links (UsersService.setColumns).
      await this.users.setColumns(owner.id, { passwordHash }, manager);
      await this.sessions.revokeAll(owner.id, undefined, manager);
      return owner;
    });
    const purpose = 'password changed notice';
    this.tasks.run(purpose, () => this.mail.deliver(passwordChangedMail(user, this.config.http.appUrl), { purpose, userId: user.id }));
  }

  /**
   * A set-password link for an account created by invitation. The token row is written with the
   * caller's transaction; the returned `send` mails the link, is to be called once that transaction
   * has committed, and tells what became of the mail (the inviter is told when it did not go out).
   */
  async invite(user: UserEntity, invitation: { serverName: string; invitedBy: string }, manager: EntityManager): Promise<{ send: () => Promise<MailOutcome> }> {
    const { token } = await this.issueToken(user, INVITATION_TOKEN_LIFETIME_MS, manager);
    const mail = invitationMail(user, resetLink(this.config.http.appUrl, token), { ...invitation, validHours: INVITATION_TOKEN_LIFETIME_MS / 3_600_000 });
    return { send: () => this.mail.deliver(mail, { purpose: 'invitation', userId: user.id }) };
  }

  /**
   * A set-password link an administrator hands over by hand (the account's invitation could not be
   * mailed, say). It is the account's only link: any earlier one, an invitation's too, stops working.
   * Audited without the token. Not for the caller's own account: they know their password, and
   * changing it in their account settings asks for it, which a link would let a stolen session skip.
   */
  async adminLink(userId: string, actor: Actor): Promise<PasswordLinkResponseDto> {
    if (actor.userId === userId) {
      throw new AppException(PasswordResetError.LINK_FOR_SELF);
    }
    return this.tokens.transaction(async (manager) => {
      const user = await this.users.get(userId, manager);
      this.users.assertManageable(user, actor);
      const { token, expiresAt } = await this.issueToken(user, INVITATION_TOKEN_LIFETIME_MS, manager);
      await this.audit.record(manager, actor, {
        action: 'user.password_link_created',
        targetType: 'user',
        targetId: user.id,
        changes: { after: { expiresAt: expiresAt.toISOString() } },
      });
      return { url: resetLink(this.config.http.appUrl, token), expiresAt: expiresAt.toISOString() };
    });
  }

  /**
   * Mails the caller a one-hour link to choose a password, for an account that has none (made through
   * single sign-on). It goes to the account's own address, so a stolen session gains nothing by it; an
   * account with a password changes it with the current one instead.
   */
  async ownLink(userId: string): Promise<OwnPasswordLinkResponseDto> {
    const user = await this.users.get(userId);
    if (user.passwordHash !== PasswordHasher.NO_PASSWORD) {
      throw new AppException(PasswordResetError.PASSWORD_ALREADY_SET);
    }
    const { token } = await this.issueToken(user, RESET_TOKEN_LIFETIME_MS);
    const outcome = await this.mail.deliver(setPasswordMail(user, resetLink(this.config.http.appUrl, token)), { purpose: 'set-password link', userId: user.id });
    return { ...toMailDelivery(outcome), email: user.email };
  }

  private async issue(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) {
      return;
    }
    const { token } = await this.issueToken(user, RESET_TOKEN_LIFETIME_MS);
    const link = resetLink(this.config.http.appUrl, token);
    await this.mail.deliver(passwordResetMail(user, link), { purpose: 'password reset', userId: user.id });
  }

  /** A new single-use token for the user, replacing any earlier one; only its hash is stored. */
  private async issueToken(user: UserEntity, lifetimeMs: number, manager?: EntityManager): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + lifetimeMs);
    await this.tokens.replaceForUser({ userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt }, manager);
    return { token, expiresAt };
  }
}
