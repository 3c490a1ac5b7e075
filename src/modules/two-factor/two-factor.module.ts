import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AuditModule } from 'src/modules/audit/audit.module';
import { MailModule } from 'src/modules/mail/mail.module';
import { PasskeysModule } from 'src/modules/passkeys/passkeys.module';
import { AdminTwoFactorController } from 'src/modules/two-factor/admin-two-factor.controller';
import { RecoveryCodeEntity } from 'src/modules/two-factor/recovery-code.entity';
import { TwoFactorController } from 'src/modules/two-factor/two-factor.controller';
import { TwoFactorRepository } from 'src/modules/two-factor/two-factor.repository';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { UserTwoFactorEntity } from 'src/modules/two-factor/user-two-factor.entity';
import { TwoFactorChallengeEntity } from 'src/modules/two-factor/two-factor-challenge.entity';
import { UserLifecycle } from 'src/modules/users/user-lifecycle';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [TypeOrmModule.forFeature([UserTwoFactorEntity, RecoveryCodeEntity, TwoFactorChallengeEntity]), UsersModule, MailModule, AuditModule, PasskeysModule],
  controllers: [TwoFactorController, AdminTwoFactorController],
  providers: [TwoFactorRepository, TwoFactorService, SecretBox],
  exports: [TwoFactorService],
})
export class TwoFactorModule implements OnModuleInit {
  constructor(
    private readonly lifecycle: UserLifecycle,
    private readonly repo: TwoFactorRepository,
  ) {}

  /** A new password voids every two-factor step the old one opened, in the transaction that sets it. */
  onModuleInit(): void {
    this.lifecycle.on({ passwordChanged: (manager, userId) => this.repo.deleteChallengesOf(userId, manager) });
  }
}
