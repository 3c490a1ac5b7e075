import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { SecretBox } from 'src/common/crypto/secret-box';
import { AppException } from 'src/common/errors/app.exception';
import { AuditService } from 'src/modules/audit/audit.service';
import { refuseSuspended } from 'src/modules/auth/auth.service';
import { ClientMeta, SignedIn, SignInService } from 'src/modules/auth/sign-in.service';
import type { AuthProviderEntity } from 'src/modules/oauth/auth-provider.entity';
import { AuthProvidersService } from 'src/modules/oauth/auth-providers.service';
import { IdentityDto, toIdentityResponse } from 'src/modules/oauth/dto/auth-provider.dto';
import { FlowChecks, OAuthClient, ProviderProfile } from 'src/modules/oauth/oauth-client';
import { OAuthError } from 'src/modules/oauth/oauth.errors';
import { OAuthRepository } from 'src/modules/oauth/oauth.repository';
import { TwoFactorError } from 'src/modules/two-factor/two-factor.errors';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { PasswordHasher } from 'src/modules/users/password.hasher';
import type { UserEntity } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

/** What survives the trip to the provider, sealed in the flow cookie of the browser that started it. */
interface OAuthFlow extends FlowChecks {
  providerId: string;
  /** Linking: the account (whose session must still be there at the callback). */
  linkUserId: string | null;
  returnTo: string | null;
  expiresAt: number;
}

export const FLOW_LIFETIME_MS = 10 * 60_000;
const FLOW_CONTEXT = 'oauth-flow';

/** How a callback ended: a session, a two-factor step still to pass, or a linked identity. */
type CallbackOutcome = { kind: 'signed-in'; signedIn: SignedIn; returnTo: string | null } | { kind: 'two-factor'; challenge: string } | { kind: 'linked' };

const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** A username from the profile: a-z, 0-9, `_`, `.`, `-`, starting with a letter or digit. */
const baseUsername = (profile: ProviderProfile): string => {
  const raw = (profile.username ?? profile.email?.split('@')[0] ?? 'user').toLowerCase();
  const cleaned = raw.replace(/[^a-z0-9_.-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 32);
  return cleaned.length > 0 ? cleaned : 'user';
};

@Injectable()
export class OAuthSignInService {
  constructor(
    private readonly providers: AuthProvidersService,
    private readonly repo: OAuthRepository,
    private readonly client: OAuthClient,
    private readonly box: SecretBox,
    private readonly users: UsersService,
    private readonly signIns: SignInService,
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditService,
  ) {}

  sealFlow(flow: OAuthFlow): string {
    return this.box.seal(JSON.stringify(flow), FLOW_CONTEXT);
  }

  /** The flow of a cookie, when it is ours and not expired. */
  openFlow(sealed: string | undefined): OAuthFlow | null {
    if (!sealed) {
      return null;
    }
    try {
      const flow = JSON.parse(this.box.open(sealed, FLOW_CONTEXT)) as OAuthFlow;
      return flow.expiresAt > Date.now() ? flow : null;
    } catch {
      return null;
    }
  }

  private async usable(providerId: string): Promise<AuthProviderEntity> {
    const provider = await this.providers.require(providerId);
    if (!provider.enabled) {
      throw new AppException(OAuthError.DISABLED);
    }
    return provider;
  }

  /** The provider's authorization URL and the flow to keep in the browser. */
  async start(providerId: string, linkUserId: string | null, returnTo: string | null): Promise<{ url: string; flow: OAuthFlow }> {
    const provider = await this.usable(providerId);
    const { url, checks } = await this.client.start(provider, this.providers.clientSecretOf(provider), this.providers.redirectUri(provider.id));
    return { url, flow: { ...checks, providerId, linkUserId, returnTo, expiresAt: Date.now() + FLOW_LIFETIME_MS } };
  }

  /**
   * The provider's answer, under the flow its start kept. `search` is the callback's query string;
   * `sessionUserId` the account whose session came with it (linking needs the one that started).
   */
  async callback(providerId: string, flow: OAuthFlow | null, search: string, sessionUserId: string | null, meta: ClientMeta): Promise<CallbackOutcome> {
    const params = new URLSearchParams(search);
    if (!flow || flow.providerId !== providerId || params.get('state') !== flow.state) {
      throw new AppException(OAuthError.STATE_MISMATCH);
    }
    const provider = await this.usable(providerId);
    if (flow.linkUserId !== null && flow.linkUserId !== sessionUserId) {
      throw new AppException(OAuthError.LINK_SESSION_MISMATCH);
    }
    const callbackUrl = new URL(this.providers.redirectUri(provider.id));
    callbackUrl.search = params.toString();
    const profile = await this.client.finish(provider, this.providers.clientSecretOf(provider), callbackUrl, flow);
    // The domain rule holds for every use of the provider: creating, linking and signing in.
    if (provider.allowedDomains.length > 0 && !(profile.email && profile.emailVerified && provider.allowedDomains.includes(domainOf(profile.email)))) {
      throw new AppException(OAuthError.DOMAIN_NOT_ALLOWED);
    }
    const identity = await this.repo.findIdentity(provider.id, profile.subject);
    const now = new Date();

    if (flow.linkUserId !== null) {
      const user = await this.users.findById(flow.linkUserId);
      if (!user) {
        throw new AppException(OAuthError.LINK_SESSION_MISMATCH);
      }
      if (identity) {
        if (identity.userId !== user.id) {
          throw new AppException(OAuthError.IDENTITY_IN_USE);
        }
        await this.repo.touchIdentity(identity.id, profile.email, now);
        return { kind: 'linked' };
      }
      await this.repo.transaction(async (m) => {
        const linked = await this.repo.insertIdentity({ userId: user.id, providerId: provider.id, subject: profile.subject, email: profile.email, lastUsedAt: now }, m);
        await this.audit.record(m, actorOf(user, meta, provider.id), {
          action: 'user.identity_linked',
          targetType: 'user',
          targetId: user.id,
          changes: { after: { identityId: linked.id, providerId: provider.id, provider: provider.name, email: profile.email } },
        });
      });
      return { kind: 'linked' };
    }

    let user: UserEntity;
    if (identity) {
      const found = await this.users.findById(identity.userId);
      if (!found) {
        throw new AppException(OAuthError.REGISTRATION_NOT_ALLOWED);
      }
      user = found;
      refuseSuspended(user);
      await this.repo.touchIdentity(identity.id, profile.email, now);
    } else {
      user = await this.register(provider, profile, meta, now);
    }
    try {
      await this.twoFactor.verifySignIn(user, undefined);
    } catch (e) {
      const challenge = (e instanceof AppException && e.code === TwoFactorError.REQUIRED.code ? (e.details as { challenge?: unknown } | undefined)?.challenge : undefined);
      if (typeof challenge === 'string') {
        return { kind: 'two-factor', challenge };
      }
      throw e;
    }
    return { kind: 'signed-in', signedIn: await this.signIns.openSession(user, meta), returnTo: flow.returnTo };
  }

  /** An account for an identity nobody has, when the provider may create one; never a match by e-mail. */
  private async register(provider: AuthProviderEntity, profile: ProviderProfile, meta: ClientMeta, now: Date): Promise<UserEntity> {
    const email = profile.emailVerified ? profile.email?.toLowerCase() : undefined;
    if (email && (await this.users.findByEmail(email))) {
      throw new AppException(OAuthError.ACCOUNT_EXISTS);
    }
    if (!provider.allowRegistration) {
      throw new AppException(OAuthError.REGISTRATION_NOT_ALLOWED);
    }
    if (!email) {
      throw new AppException(OAuthError.EMAIL_NOT_VERIFIED);
    }
    const username = await this.freeUsername(baseUsername(profile));
    return this.repo.transaction(async (m) => {
      // No password: the account signs in with its provider, and can set one by a password reset.
      const user = await this.users.register({ name: profile.name ?? '', username, email, passwordHash: PasswordHasher.NO_PASSWORD }, m);
      const linked = await this.repo.insertIdentity({ userId: user.id, providerId: provider.id, subject: profile.subject, email, lastUsedAt: now }, m);
      await this.audit.record(m, actorOf(user, meta, provider.id), {
        action: 'user.identity_linked',
        targetType: 'user',
        targetId: user.id,
        changes: { after: { identityId: linked.id, providerId: provider.id, provider: provider.name, email, registered: true } },
      });
      return user;
    });
  }

  private async freeUsername(base: string): Promise<string> {
    for (let n = 1; n <= 20; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await this.users.findByUsername(candidate))) {
        return candidate;
      }
    }
    return `${base}-${randomBytes(4).toString('hex')}`;
  }

  async identities(userId: string): Promise<IdentityDto[]> {
    return (await this.repo.identitiesOf(userId)).map((i) => toIdentityResponse(i as Parameters<typeof toIdentityResponse>[0]));
  }

  /** Unlinks one of the caller's identities; never the last way into an account without a password. */
  async unlink(user: UserEntity, id: string, actor: Actor): Promise<void> {
    await this.repo.transaction(async (m) => {
      await this.users.lockForUpdate(user.id, m);
      const identity = await this.repo.findIdentityOf(user.id, id, m);
      if (!identity) {
        throw new AppException(OAuthError.IDENTITY_NOT_FOUND);
      }
      const current = await this.users.findById(user.id, m);
      if (current?.passwordHash === PasswordHasher.NO_PASSWORD && (await this.repo.countIdentitiesOf(user.id, m)) <= 1) {
        throw new AppException(OAuthError.LAST_SIGN_IN_METHOD);
      }
      await this.repo.deleteIdentity(identity.id, m);
      await this.audit.record(m, actor, {
        action: 'user.identity_unlinked',
        targetType: 'user',
        targetId: user.id,
        changes: { before: { identityId: identity.id, providerId: identity.providerId, provider: identity.provider?.name ?? null, email: identity.email } },
      });
    });
  }
}

/** The audit entry's actor of a callback, which no authenticated route carries. */
const actorOf = (user: UserEntity, meta: ClientMeta, providerId: string): Actor => ({
  userId: user.id,
  username: user.username,
  email: user.email,
  via: `oauth:${providerId}`,
  ip: meta.ip ?? null,
});
