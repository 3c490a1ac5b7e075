import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { CaptchaModule } from 'src/modules/captcha/captcha.module';
import { MailModule } from 'src/modules/mail/mail.module';
import { AdminPasswordLinkController } from 'src/modules/password-reset/admin-password-link.controller';
import { OwnPasswordLinkController } from 'src/modules/password-reset/own-password-link.controller';
import { PasswordResetController } from 'src/modules/password-reset/password-reset.controller';
import { PasswordResetTokenEntity } from 'src/modules/password-reset/password-reset-token.entity';
import { PasswordResetRepository } from 'src/modules/password-reset/password-reset.repository';
import { PasswordResetService } from 'src/modules/password-reset/password-reset.service';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [TypeOrmModule.forFeature([PasswordResetTokenEntity]), UsersModule, SessionsModule, MailModule, CaptchaModule, AuditModule],
  controllers: [PasswordResetController, AdminPasswordLinkController, OwnPasswordLinkController],
  providers: [PasswordResetRepository, PasswordResetService],
  exports: [PasswordResetService],
})
export class PasswordResetModule implements OnModuleInit {
  constructor(
    private readonly lifecycle: UserLifecycle,
    private readonly tokens: PasswordResetRepository,
  ) {}

  /** A new password makes every reset link mailed for the old one useless, in the transaction that sets it. */
  onModuleInit(): void {
    this.lifecycle.on({ passwordChanged: (manager, userId) => this.tokens.deleteForUser(userId, manager) });
  }
}
