import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from 'src/modules/audit/audit.module';
import { MailModule } from 'src/modules/mail/mail.module';
import { PasskeyChallengeEntity } from 'src/modules/passkeys/passkey-challenge.entity';
import { PasskeyEntity } from 'src/modules/passkeys/passkey.entity';
import { PasskeysController } from 'src/modules/passkeys/passkeys.controller';
import { PasskeysRepository } from 'src/modules/passkeys/passkeys.repository';
import { PasskeysService } from 'src/modules/passkeys/passkeys.service';
import { UsersModule } from 'src/modules/users/users.module';

/** Passkeys (WebAuthn): the account's list; AuthModule's routes sign in with one, TwoFactorModule takes one as the second factor. */
@Module({
  imports: [TypeOrmModule.forFeature([PasskeyEntity, PasskeyChallengeEntity]), UsersModule, MailModule, AuditModule],
  controllers: [PasskeysController],
  providers: [PasskeysRepository, PasskeysService],
  exports: [PasskeysService],
})
export class PasskeysModule {}
