import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from 'src/common/auth/auth.guard';
import { RateLimiter } from 'src/common/rate-limit/rate-limit.hook';
import { ApiKeysModule } from 'src/modules/api-keys/api-keys.module';
import { AuthController } from 'src/modules/auth/auth.controller';
import { CaptchaModule } from 'src/modules/captcha/captcha.module';
import { AuthService } from 'src/modules/auth/auth.service';
import { SignInService } from 'src/modules/auth/sign-in.service';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [UsersModule, SessionsModule, ApiKeysModule, CaptchaModule, TwoFactorModule],
  controllers: [AuthController],
  providers: [AuthService, SignInService, RateLimiter, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService, RateLimiter],
})
export class AuthModule {}
