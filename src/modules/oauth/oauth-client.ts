import { Injectable } from '@nestjs/common';
import * as oidc from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { AppException } from 'src/common/errors/app.exception';
import { assertPublicUrl, checkedLookup, OutboundPolicy } from 'src/common/http/outbound-url';
import type { AuthProviderEntity } from 'src/modules/oauth/auth-provider.entity';
import { OAuthError } from 'src/modules/oauth/oauth.errors';
import { GITHUB_EMAILS_URL, PRESETS } from 'src/modules/oauth/provider-presets';

/** Who the provider says signed in. */
export interface ProviderProfile {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  username: string | null;
}

/** What the start of a sign-in keeps for its callback. */
export interface FlowChecks {
  state: string;
  nonce: string | null;
  verifier: string;
}

const TIMEOUT_SECONDS = 10;
/** Discovered configurations are kept this long (and dropped when the provider's row changes). */
const CACHE_MS = 10 * 60_000;

const asString = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : null);

/**
 * The panel's side of OpenID Connect and OAuth 2.0, through openid-client (a certified relying party:
 * state, nonce, PKCE, the ID token's issuer, audience and signature). Every request it makes goes
 * through the outbound policy: public addresses only (re-checked at connect), unless
 * OUTBOUND_ALLOW_PRIVATE, which also lets an issuer use plain http (tests, development).
 */
@Injectable()
export class OAuthClient {
  private readonly cache = new Map<string, { config: oidc.Configuration; until: number }>();
  private readonly dispatcher: Agent;

  constructor(private readonly policy: OutboundPolicy) {
    this.dispatcher = new Agent({ connect: { lookup: checkedLookup(policy) } });
  }

  /** Every request to a provider (the tests of the Discord and GitHub presets answer them from a local server). */
  protected readonly fetch: oidc.CustomFetch = async (url, options) => {
    await assertPublicUrl(url, this.policy);
    const { body, headers, method, redirect, signal } = options;
    // undici's own fetch, so that its dispatcher (with the checked lookup) applies.
    return undiciFetch(url, { body: body as never, headers, method, redirect, signal, dispatcher: this.dispatcher });
  };

  /** Discovers an issuer (create and update check with it): the configuration, or DISCOVERY_FAILED. */
  async discover(issuer: string, clientId: string, clientSecret: string): Promise<oidc.Configuration> {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new AppException(OAuthError.DISCOVERY_FAILED, { message: 'The issuer is not a valid URL' });
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.policy.allowPrivate)) {
      throw new AppException(OAuthError.DISCOVERY_FAILED, { message: 'The issuer must use https' });
    }
    try {
      return await oidc.discovery(url, clientId, undefined, oidc.ClientSecretPost(clientSecret), {
        [oidc.customFetch]: this.fetch,
        timeout: TIMEOUT_SECONDS,
        execute: url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      });
    } catch (e) {
      // openid-client wraps what its fetch threw (the outbound rules' refusal) as the cause.
      const cause = e instanceof Error && e.cause instanceof AppException ? e.cause : e;
      const reason = cause instanceof Error ? cause.message : 'unknown error';
      throw new AppException(OAuthError.DISCOVERY_FAILED, { message: `The issuer could not be discovered: ${reason}` });
    }
  }

  private async configuration(provider: AuthProviderEntity, clientSecret: string): Promise<oidc.Configuration> {
    const key = `${provider.id}:${provider.updatedAt.getTime()}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) {
      return hit.config;
    }
    let config: oidc.Configuration;
    const endpoints = provider.type === 'github' || provider.type === 'discord' ? PRESETS[provider.type].endpoints : undefined;
    if (endpoints) {
      config = new oidc.Configuration(
        { issuer: provider.issuer, authorization_endpoint: endpoints.authorization, token_endpoint: endpoints.token },
        provider.clientId,
        undefined,
        oidc.ClientSecretPost(clientSecret),
      );
      config[oidc.customFetch] = this.fetch;
      config.timeout = TIMEOUT_SECONDS;
    } else {
      try {
        config = await this.discover(provider.issuer, provider.clientId, clientSecret);
      } catch {
        throw new AppException(OAuthError.PROVIDER_UNAVAILABLE);
      }
    }
    for (const k of this.cache.keys()) {
      if (k.startsWith(`${provider.id}:`)) {
        this.cache.delete(k);
      }
    }
    this.cache.set(key, { config, until: Date.now() + CACHE_MS });
    return config;
  }

  /** Where to send the browser, and the checks its callback must meet. */
  async start(provider: AuthProviderEntity, clientSecret: string, redirectUri: string): Promise<{ url: string; checks: FlowChecks }> {
    const config = await this.configuration(provider, clientSecret);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = provider.type === 'github' || provider.type === 'discord' ? null : oidc.randomNonce();
    const params: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(' '),
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(nonce ? { nonce } : {}),
    };
    return { url: oidc.buildAuthorizationUrl(config, params).href, checks: { state, nonce, verifier } };
  }

  /** Redeems the callback's code under the checks of its start and says who signed in. */
  async finish(provider: AuthProviderEntity, clientSecret: string, callbackUrl: URL, checks: FlowChecks): Promise<ProviderProfile> {
    const config = await this.configuration(provider, clientSecret);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        ...(checks.nonce ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
      });
      if (provider.type === 'github' || provider.type === 'discord') {
        return await this.oauth2Profile(provider.type, config, tokens.access_token);
      }
      const claims = tokens.claims();
      if (!claims) {
        throw new AppException(OAuthError.TOKEN_INVALID, { message: 'The provider sent no ID token' });
      }
      let info: Record<string, unknown> = claims;
      if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
        info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
      return {
        subject: claims.sub,
        email: asString(info.email),
        emailVerified: info.email_verified === true,
        name: asString(info.name),
        username: asString(info.preferred_username) ?? asString(info.nickname),
      };
    } catch (e) {
      throw this.translate(e);
    }
  }

  private async oauth2Profile(type: 'github' | 'discord', config: oidc.Configuration, accessToken: string): Promise<ProviderProfile> {
    const endpoints = PRESETS[type].endpoints;
    if (!endpoints) {
      throw new AppException(OAuthError.TOKEN_INVALID);
    }
    const get = async (url: string): Promise<unknown> => {
      const res = await oidc.fetchProtectedResource(config, accessToken, new URL(url), 'GET', null, new Headers({ Accept: 'application/json', 'User-Agent': 'Hatchery' }));
      if (!res.ok) {
        throw new AppException(OAuthError.TOKEN_INVALID, { message: `The provider answered HTTP ${res.status} for the profile` });
      }
      return res.json();
    };
    const profile = (await get(endpoints.profile)) as Record<string, unknown>;
    const subject = asString(profile.id);
    if (!subject) {
      throw new AppException(OAuthError.TOKEN_INVALID, { message: 'The provider’s profile has no id' });
    }
    if (type === 'discord') {
      return { subject, email: asString(profile.email), emailVerified: profile.verified === true, name: asString(profile.global_name), username: asString(profile.username) };
    }
    const emails = (await get(GITHUB_EMAILS_URL)) as { email?: unknown; primary?: unknown; verified?: unknown }[];
    const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true && e.verified === true) : undefined;
    return { subject, email: asString(primary?.email), emailVerified: primary !== undefined, name: asString(profile.name), username: asString(profile.login) };
  }

  private translate(e: unknown): AppException {
    if (e instanceof AppException) {
      return e.code.startsWith('OUTBOUND_') ? new AppException(OAuthError.PROVIDER_UNAVAILABLE) : e;
    }
    if (e instanceof oidc.AuthorizationResponseError) {
      return new AppException(OAuthError.PROVIDER_ERROR, { message: `The provider refused the sign-in: ${e.error}` });
    }
    if (e instanceof Error && e.cause instanceof AppException) {
      return new AppException(OAuthError.PROVIDER_UNAVAILABLE);
    }
    if (e instanceof TypeError) {
      return new AppException(OAuthError.PROVIDER_UNAVAILABLE);
    }
    // ResponseBodyError (the token endpoint refused the code) and ClientError (state, issuer,
    // audience, nonce, signature…).
    const code = e instanceof Error && 'code' in e && typeof e.code === 'string' ? ` (${e.code})` : '';
    return new AppException(OAuthError.TOKEN_INVALID, { message: `The provider’s answer could not be verified${code}` });
  }
}
