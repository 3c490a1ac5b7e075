import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from 'src/modules/auth/auth.guard';
import { RateLimitGuard } from 'src/modules/auth/rate-limit.guard';
import { ApiKeysModule } from 'src/modules/api-keys/api-keys.module';
import { AuthController } from 'src/modules/auth/auth.controller';
import { CaptchaModule } from 'src/modules/captcha/captcha.module';
import { AuthService } from 'src/modules/auth/auth.service';
import { SignInService } from 'src/modules/auth/sign-in.service';
import { PasskeysModule } from 'src/modules/passkeys/passkeys.module';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { UsersModule } from 'src/modules/users/users.module';

@Module({
  imports: [UsersModule, SessionsModule, ApiKeysModule, CaptchaModule, TwoFactorModule, PasskeysModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    SignInService,
    RateLimitGuard,
    // Global guards run in this order: the rate limit counts a request before its credentials are
    // judged, so requests with failing credentials are counted (and refused) too.
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AuthService, SignInService, RateLimitGuard],
})
export class AuthModule {}
