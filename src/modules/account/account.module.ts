import { Module } from '@nestjs/common';
import { AccountController } from 'src/modules/account/account.controller';
import { AccountService } from 'src/modules/account/account.service';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [UsersModule, SessionsModule],
  controllers: [AccountController],
  providers: [AccountService],
})
export class AccountModule {}
