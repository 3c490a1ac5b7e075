import { Module } from '@nestjs/common';
import { AccountController } from 'src/modules/account/account.controller';
import { AccountService } from 'src/modules/account/account.service';
import { AuditModule } from 'src/modules/audit/audit.module';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [UsersModule, SessionsModule, TwoFactorModule, AuditModule],
  controllers: [AccountController],
  providers: [AccountService],
  exports: [AccountService],
})
export class AccountModule {}
