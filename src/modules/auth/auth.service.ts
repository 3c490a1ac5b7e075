import { Injectable } from '@nestjs/common';
import type { AuthContext } from 'src/common/auth/auth-context';
import { SESSION_COOKIE } from 'src/common/auth/authenticated.decorator';
import { bearerToken } from 'src/common/auth/bearer';
import { AuthError } from 'src/common/auth/auth.errors';
import { AppException } from 'src/common/errors/app.exception';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import type { UserEntity } from 'src/modules/users/user.entity';


const AUTH_ATTEMPT = Symbol('hatchery:auth-attempt');

/** An API key (from `Authorization: Bearer` or `x-api-key`) or a session cookie's value. */
export type HeldCredential = { kind: 'api-key'; secret: string } | { kind: 'session'; token: string };

/**
 * What the request presents, in order: `Authorization: Bearer`, then `x-api-key`, then the session
 * cookie. An Authorization header that is not a bearer token presents a key that cannot work
 * (`secret` undefined): it never falls through to the cookie.
 */
const presentedCredential = (req: HttpRequest): { kind: 'api-key'; secret: string | undefined } | { kind: 'session'; token: string } | null => {
  const authorization = headerOf(req, 'authorization');
  const headerKey = headerOf(req, 'x-api-key');
  if (authorization !== undefined || headerKey !== undefined) {
    const bearer = bearerToken(authorization);
    return { kind: 'api-key', secret: bearer ?? (authorization === undefined ? headerKey : undefined) };
  }
  const token = req.cookies[SESSION_COOKIE];
  return typeof token === 'string' && token.length > 0 ? { kind: 'session', token } : null;
};

/** A suspended account is refused with its own code (the credential itself was good). */
export const refuseSuspended = (user: UserEntity): void => {
  if (user.suspended) {
    throw new AppException(AuthError.ACCOUNT_SUSPENDED);
  }
};

@Injectable()
export class AuthService {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfigService,
    private readonly settings: PanelSettings,
  ) {}

  /**
   * Resolves the caller: `Authorization: Bearer` first, then `x-api-key`, then the session cookie.
   * A presented credential that does not resolve is a 401; it never falls through to the next.
   * Returns null when the request carries no credential at all.
   */
  /**
   * authenticate(), once per request: the rate limiter (which runs first) and the AuthGuard share
   * one lookup.
   */
  authenticateOnce(req: HttpRequest, res: HttpReply): Promise<AuthContext | null> {
    const memo = req as HttpRequest & { [AUTH_ATTEMPT]?: Promise<AuthContext | null> };
    memo[AUTH_ATTEMPT] ??= this.authenticate(req, res);
    return memo[AUTH_ATTEMPT];
  }

  async authenticate(req: HttpRequest, res: HttpReply): Promise<AuthContext | null> {
    const presented = presentedCredential(req);
    if (presented === null) {
      return null;
    }
    if (presented.kind === 'api-key') {
      const auth = presented.secret ? await this.byApiKey(presented.secret) : null;
      if (!auth) {
        throw new AppException(AuthError.UNAUTHENTICATED);
      }
      refuseSuspended(auth.user);
      return auth;
    }
    const resolved = await this.sessions.resolve(presented.token);
    if (!resolved) {
      this.clearSessionCookie(res);
      throw new AppException(AuthError.UNAUTHENTICATED);
    }
    if (resolved.session.user.suspended) {
      // Suspension deletes the sessions; one that slipped past (made in the same instant) ends here.
      await this.sessions.revokeAll(resolved.session.userId);
      this.clearSessionCookie(res);
      refuseSuspended(resolved.session.user);
    }
    if (resolved.refreshed) {
      this.setSessionCookie(res, presented.token, resolved.session);
    }
    return { method: 'session', user: resolved.session.user, session: resolved.session };
  }

  /**
   * The credential a request authenticated with, for a connection that outlives the request (the
   * live-status WebSocket) to check again with `recheck`. Null when it presented none that works.
   */
  heldCredential(req: HttpRequest): HeldCredential | null {
    const presented = presentedCredential(req);
    if (presented === null || (presented.kind === 'api-key' && !presented.secret)) {
      return null;
    }
    return presented.kind === 'api-key' ? { kind: 'api-key', secret: presented.secret! } : presented;
  }

  /**
   * The caller a held credential stands for now, or null once it no longer works (signed out,
   * session or key revoked or expired, account suspended, or held by the two-factor policy). A session
   * is not extended by this: only requests do that.
   */
  async recheck(held: HeldCredential): Promise<AuthContext | null> {
    const session = held.kind === 'session' ? await this.sessions.peek(held.token) : null;
    const auth: AuthContext | null = held.kind === 'api-key' ? await this.byApiKey(held.secret) : session && { method: 'session', user: session.user, session };
    return auth && !auth.user.suspended && !this.settings.holdsForTwoFactorSetup(auth.user) ? auth : null;
  }

  private async byApiKey(secret: string): Promise<AuthContext | null> {
    const resolved = await this.apiKeys.resolve(secret);
    return resolved ? { method: 'api-key', user: resolved.key.user, apiKey: resolved.key, scopes: resolved.scopes, limited: resolved.limited } : null;
  }

  setSessionCookie(res: HttpReply, token: string, session: SessionEntity): void {
    res.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      secure: this.config.auth.secureCookies,
      sameSite: 'lax',
      path: '/',
      expires: session.expiresAt,
    });
  }

  clearSessionCookie(res: HttpReply): void {
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: this.config.auth.secureCookies, sameSite: 'lax', path: '/' });
  }
}
