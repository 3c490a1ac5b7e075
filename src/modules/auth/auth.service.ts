import { Injectable } from '@nestjs/common';
import type { AuthContext } from 'src/modules/auth/auth-context';
import { SESSION_COOKIE } from 'src/common/auth/authenticated.decorator';
import { AuthError } from 'src/common/auth/auth.errors';
import { AppException } from 'src/common/errors/app.exception';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';
import { SessionEntity } from 'src/modules/sessions/session.entity';
import { SessionsService } from 'src/modules/sessions/sessions.service';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const AUTH_ATTEMPT = Symbol('hatchery:auth-attempt');

@Injectable()
export class AuthService {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfigService,
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
    const authorization = headerOf(req, 'authorization');
    const headerKey = headerOf(req, 'x-api-key');
    if (authorization !== undefined || headerKey !== undefined) {
      const bearer = authorization !== undefined ? BEARER.exec(authorization)?.[1] : undefined;
      const secret = bearer ?? (authorization === undefined ? headerKey : undefined);
      const resolved = secret ? await this.apiKeys.resolve(secret) : null;
      if (!resolved) {
        throw new AppException(AuthError.UNAUTHENTICATED);
      }
      return { method: 'api-key', user: resolved.key.user, apiKey: resolved.key, scopes: resolved.scopes };
    }
    const token = req.cookies[SESSION_COOKIE];
    if (typeof token !== 'string' || token.length === 0) {
      return null;
    }
    const resolved = await this.sessions.resolve(token);
    if (!resolved) {
      this.clearSessionCookie(res);
      throw new AppException(AuthError.UNAUTHENTICATED);
    }
    if (resolved.refreshed) {
      this.setSessionCookie(res, token, resolved.session);
    }
    return { method: 'session', user: resolved.session.user, session: resolved.session };
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
