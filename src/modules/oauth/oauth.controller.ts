import { Controller, Delete, Get, HttpCode, Param, Query, Redirect, Req, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AuthContext, requireSession } from 'src/common/auth/auth-context';
import { Authenticated, Public } from 'src/common/auth/authenticated.decorator';
import { Actor, CurrentActor } from 'src/common/auth/current-actor.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { AppException } from 'src/common/errors/app.exception';
import { ApiData } from 'src/common/http/api-responses';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { DecimalIdPipe } from 'src/common/validation/decimal-id.pipe';
import { AppConfigService } from 'src/config/app-config.service';
import { AuthError } from 'src/common/auth/auth.errors';
import { AuthService } from 'src/modules/auth/auth.service';
import type { ClientMeta } from 'src/modules/auth/sign-in.service';
import { AuthProvidersService } from 'src/modules/oauth/auth-providers.service';
import { IdentityDto, OAuthStartQueryDto, PublicAuthProviderDto } from 'src/modules/oauth/dto/auth-provider.dto';
import { OAuthError } from 'src/modules/oauth/oauth.errors';
import { FLOW_LIFETIME_MS, OAuthSignInService } from 'src/modules/oauth/oauth-sign-in.service';
import { SessionsService } from 'src/modules/sessions/sessions.service';

const FLOW_COOKIE = 'hatchery_oauth';
const FLOW_PATH = '/api/auth/oauth';
const SIGN_IN_PAGE = '/auth/login';
const ACCOUNT_PAGE = '/account';

const providerId = new DecimalIdPipe(OAuthError.PROVIDER_NOT_FOUND);
const identityId = new DecimalIdPipe(OAuthError.IDENTITY_NOT_FOUND);
const meta = (req: HttpRequest): ClientMeta => ({ ip: req.ip, userAgent: headerOf(req, 'user-agent') });
const codeOf = (e: unknown): string => (e instanceof AppException ? e.code : OAuthError.TOKEN_INVALID.code);
const withError = (page: string, e: unknown): { url: string } => ({ url: `${page}?error=${encodeURIComponent(codeOf(e))}` });

/**
 * Single sign-on (docs/sso.md): `GET /api/auth/oauth/{id}` sends the browser to the provider, whose
 * answer comes back to `…/callback`. Both are browser navigations, so each refusal is a redirect to the
 * sign-in page (the account page, when linking) with `?error=<code>`, not a JSON body.
 */
@ApiTags('auth')
@Controller('api/auth')
export class OAuthController {
  constructor(
    private readonly flows: OAuthSignInService,
    private readonly providers: AuthProvidersService,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfigService,
  ) {}

  /** Enabled providers with a button on the sign-in page. */
  @Get('providers')
  @Public()
  @ApiData(PublicAuthProviderDto, { isArray: true })
  async list(): Promise<{ data: PublicAuthProviderDto[] }> {
    return { data: await this.providers.listPublic(true) };
  }

  /**
   * To the provider (302). With `link=true` and the caller's session: links the provider to that
   * account. Linking adds a way in that outlives the session, so, as changing the password, it needs a
   * fresh session (signed in within five minutes): a stolen cookie cannot plant its thief's identity.
   */
  @Get('oauth/:id')
  @Public()
  @Redirect()
  @ApiResponse({ status: 302, description: 'To the provider; on a refusal, to the sign-in (or account) page with ?error=<code>' })
  async start(@Param('id', providerId) id: string, @Query() query: OAuthStartQueryDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ url: string }> {
    const linking = query.link === 'true';
    try {
      let linkUserId: string | null = null;
      if (linking) {
        const current = await this.auth.authenticateOnce(req, res).catch(() => null);
        if (current?.method !== 'session') {
          throw new AppException(OAuthError.LINK_SESSION_MISMATCH);
        }
        if (!this.sessions.isFresh(current.session)) {
          throw new AppException(AuthError.SESSION_NOT_FRESH);
        }
        linkUserId = current.user.id;
      }
      const { url, flow } = await this.flows.start(id, linkUserId, linking ? null : (query.returnTo ?? null));
      res.setCookie(FLOW_COOKIE, this.flows.sealFlow(flow), {
        httpOnly: true,
        secure: this.config.auth.secureCookies,
        // Lax: the provider's redirect back is a top-level GET from another site, which Lax lets through.
        sameSite: 'lax',
        path: FLOW_PATH,
        maxAge: FLOW_LIFETIME_MS / 1000,
      });
      return { url };
    } catch (e) {
      return withError(linking ? ACCOUNT_PAGE : SIGN_IN_PAGE, e);
    }
  }

  /** The provider's answer: a session (or the two-factor step, in the URL fragment `#challenge=`), or a linked identity. */
  @Get('oauth/:id/callback')
  @Public()
  @Redirect()
  @ApiResponse({ status: 302, description: 'To the panel signed in, to the sign-in page’s two-factor step, or with ?error=<code>' })
  async callback(@Param('id', providerId) id: string, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ url: string }> {
    const flow = this.flows.openFlow(req.cookies[FLOW_COOKIE]);
    // One use: the cookie goes whatever the outcome.
    res.clearCookie(FLOW_COOKIE, { path: FLOW_PATH });
    const linking = flow !== null && flow.linkUserId !== null;
    try {
      const session = linking ? await this.auth.authenticateOnce(req, res).catch(() => null) : null;
      const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      const outcome = await this.flows.callback(id, flow, search, session?.method === 'session' ? session.user.id : null, meta(req));
      switch (outcome.kind) {
        case 'linked':
          return { url: `${ACCOUNT_PAGE}?linked=${encodeURIComponent(id)}` };
        case 'two-factor':
          // In the fragment, which never reaches a server or a Referer header.
          return { url: `${SIGN_IN_PAGE}#challenge=${encodeURIComponent(outcome.challenge)}` };
        case 'signed-in':
          this.auth.setSessionCookie(res, outcome.signedIn.token, outcome.signedIn.session);
          return { url: outcome.returnTo ?? '/' };
      }
    } catch (e) {
      return withError(linking ? ACCOUNT_PAGE : SIGN_IN_PAGE, e);
    }
  }
}

/** The caller's linked sign-in identities. */
@ApiTags('account')
@Controller('api/account/identities')
export class IdentitiesController {
  constructor(
    private readonly flows: OAuthSignInService,
    private readonly providers: AuthProvidersService,
  ) {}

  @Get()
  @Authenticated()
  @ApiData(IdentityDto, { isArray: true })
  async list(@CurrentAuth() auth: AuthContext): Promise<{ data: IdentityDto[] }> {
    return { data: await this.flows.identities(auth.user.id) };
  }

  /** Every enabled provider, the hidden ones too: what the account page offers to link. */
  @Get('providers')
  @Authenticated()
  @ApiData(PublicAuthProviderDto, { isArray: true })
  async linkable(): Promise<{ data: PublicAuthProviderDto[] }> {
    return { data: await this.providers.listPublic(false) };
  }

  /** 409 IDENTITY_LAST_SIGN_IN_METHOD for the only identity of an account without a password. */
  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  async unlink(@CurrentAuth() current: AuthContext, @Param('id', identityId) id: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.flows.unlink(requireSession(current).user, id, actor);
  }
}
