import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest, AuthContext, isLimitedKey } from 'src/common/auth/auth-context';
import { AUTH_METADATA, AuthenticatedOptions, DAEMON_METADATA, NODE_SCOPED_METADATA, PTERODACTYL_METADATA, PUBLIC_METADATA } from 'src/common/auth/authenticated.decorator';
import { AuthError } from 'src/common/auth/auth.errors';
import { requestOrigin, SAFE_METHODS, untrustedOriginMessage } from 'src/common/auth/trusted-origin';
import { AppException } from 'src/common/errors/app.exception';
import { HttpReply, pathOf } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import { AuthService } from 'src/modules/auth/auth.service';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import type { AdminScope } from 'src/common/auth/admin-scope';

const TWO_FACTOR_KEY_MESSAGE =
  "Two-factor sign-in is required for this key's account: its API keys work once it has an authenticator app or a passkey";

/** The one global guard. Every route is `@Public()` or `@Authenticated(...)`; anything else is refused. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfigService,
    private readonly settings: PanelSettings,
    private readonly roles: AdminRoles,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(DAEMON_METADATA, targets)) {
      return true; // DaemonTokenGuard, on the route, authenticates the node.
    }
    if (this.reflector.getAllAndOverride<boolean>(PTERODACTYL_METADATA, targets)) {
      return true; // PterodactylKeyGuard, on the route, authenticates the Pterodactyl key.
    }
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)) {
      this.checkPublicOrigin(req);
      return true;
    }
    const options = this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTH_METADATA, targets);
    if (!options) {
      // Fail closed; the controller reflection test keeps this from shipping.
      throw new Error(`Route ${req.method} ${pathOf(req)} declares neither @Public() nor @Authenticated()`);
    }
    const auth = await this.auth.authenticateOnce(req, context.switchToHttp().getResponse<HttpReply>());
    if (!auth) {
      throw new AppException(options.apiKeyOnly ? AuthError.API_KEY_REQUIRED : AuthError.UNAUTHENTICATED);
    }
    this.authorize(auth, options, req, targets);
    req.auth = auth;
    return true;
  }

  private authorize(auth: AuthContext, options: AuthenticatedOptions, req: AuthenticatedRequest, targets: Parameters<Reflector['getAllAndOverride']>[1]): void {
    if (this.settings.holdsForTwoFactorSetup(auth.user) && (auth.method === 'api-key' || !options.twoFactorSetup)) {
      throw new AppException(AuthError.TWO_FACTOR_SETUP_REQUIRED, auth.method === 'api-key' ? { message: TWO_FACTOR_KEY_MESSAGE } : {});
    }
    if (auth.method === 'session') {
      if (options.apiKeyOnly) {
        throw new AppException(AuthError.API_KEY_REQUIRED);
      }
      const origin = requestOrigin(req);
      if (!SAFE_METHODS.has(req.method) && !this.isTrusted(origin)) {
        throw this.untrusted(origin);
      }
      if (options.freshSession && !this.sessions.isFresh(auth.session)) {
        throw new AppException(AuthError.SESSION_NOT_FRESH);
      }
    } else if (options.sessionOnly || options.freshSession) {
      throw new AppException(AuthError.SESSION_REQUIRED);
    } else if (options.credentials && isLimitedKey(auth)) {
      throw new AppException(AuthError.LIMITED_KEY_REFUSED);
    }
    if (options.fullAdmin) {
      this.authorizeFullAdmin(auth);
    } else if (options.anyAdmin && this.roles.grantsOf(auth).scopes.size === 0) {
      throw new AppException(this.roles.grantsOfUser(auth.user).scopes.size > 0 ? AuthError.MISSING_SCOPE : AuthError.ADMIN_REQUIRED);
    } else if (options.admin !== undefined) {
      req.adminNodes = this.authorizeAdmin(auth, options.admin, this.reflector.getAllAndOverride<boolean>(NODE_SCOPED_METADATA, targets) === true);
    }
  }

  private authorizeFullAdmin(auth: AuthContext): void {
    if (!auth.user.admin) {
      throw new AppException(this.roles.grantsOfUser(auth.user).scopes.size > 0 ? AuthError.FULL_ADMIN_REQUIRED : AuthError.ADMIN_REQUIRED);
    }
    if (isLimitedKey(auth)) {
      throw new AppException(AuthError.MISSING_SCOPE, { message: 'This action needs an API key with every admin scope' });
    }
  }

  /** The caller's grant of `scope` (a full administrator's, or their roles'), narrowed to the key's scopes; answers the nodes it reaches. */
  private authorizeAdmin(auth: AuthContext, scope: AdminScope, nodeScoped: boolean): ReadonlySet<string> | null {
    const nodes = this.roles.grantsOf(auth).scopes.get(scope);
    if (nodes === undefined) {
      const own = this.roles.grantsOfUser(auth.user).scopes;
      if (own.size === 0) {
        throw new AppException(AuthError.ADMIN_REQUIRED);
      }
      if (own.has(scope)) {
        throw new AppException(AuthError.MISSING_SCOPE, { message: `The API key lacks the ${scope} scope this action requires` });
      }
      throw new AppException(AuthError.ROLE_FORBIDDEN, { message: `Your administrator roles do not grant ${scope}, which this action requires` });
    }
    if (nodes !== null && !nodeScoped) {
      throw new AppException(AuthError.ROLE_NODE_LIMITED);
    }
    return nodes;
  }

  /** A browser that names an origin on an anonymous write (sign-in, sign-up) must name a trusted one. */
  private checkPublicOrigin(req: AuthenticatedRequest): void {
    if (SAFE_METHODS.has(req.method)) {
      return;
    }
    const origin = requestOrigin(req);
    if (origin !== undefined && !this.isTrusted(origin)) {
      throw this.untrusted(origin);
    }
  }

  private untrusted(origin: string | undefined): AppException {
    return new AppException(AuthError.UNTRUSTED_ORIGIN, { message: untrustedOriginMessage(this.config.http.trustedOrigins, origin) });
  }

  private isTrusted(origin: string | undefined): boolean {
    return origin !== undefined && this.config.http.trustedOrigins.includes(origin);
  }
}
