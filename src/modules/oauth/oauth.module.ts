import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretBox } from 'src/common/crypto/secret-box';
import { outboundPolicyProvider } from 'src/common/http/outbound-policy.provider';
import { AuditModule } from 'src/modules/audit/audit.module';
import { AuthModule } from 'src/modules/auth/auth.module';
import { AuthProviderEntity, UserIdentityEntity } from 'src/modules/oauth/auth-provider.entity';
import { AuthProvidersController } from 'src/modules/oauth/auth-providers.controller';
import { AuthProvidersService } from 'src/modules/oauth/auth-providers.service';
import { OAuthClient } from 'src/modules/oauth/oauth-client';
import { IdentitiesController, OAuthController } from 'src/modules/oauth/oauth.controller';
import { OAuthRepository } from 'src/modules/oauth/oauth.repository';
import { OAuthSignInService } from 'src/modules/oauth/oauth-sign-in.service';
import { SessionsModule } from 'src/modules/sessions/sessions.module';
import { TwoFactorModule } from 'src/modules/two-factor/two-factor.module';
import { UsersModule } from 'src/modules/users/users.module';

/**
 * Single sign-on with OpenID Connect and OAuth 2.0 providers (docs/sso.md): administrators' providers,
 * the sign-in and linking flow, and accounts' linked identities.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuthProviderEntity, UserIdentityEntity]), AuditModule, AuthModule, SessionsModule, TwoFactorModule, UsersModule],
  controllers: [AuthProvidersController, OAuthController, IdentitiesController],
  // Requests to providers never reach private addresses unless OUTBOUND_ALLOW_PRIVATE (not in production).
  providers: [OAuthRepository, AuthProvidersService, OAuthSignInService, OAuthClient, SecretBox, outboundPolicyProvider],
})
export class OAuthModule {}
