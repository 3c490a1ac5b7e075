import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiData } from 'src/common/http/api-responses';
import { SessionStateDto, SignedInDto, SignedUpDto } from 'src/modules/auth/dto/auth-response.dto';
import { AuthContext, requireSession } from 'src/common/auth/auth-context';
import { Authenticated, Public } from 'src/common/auth/authenticated.decorator';
import { CurrentAuth } from 'src/common/auth/current-auth.decorator';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { AuthService } from 'src/modules/auth/auth.service';
import { RequireCaptcha } from 'src/modules/captcha/captcha.guard';
import { SignInEmailDto, SignInUsernameDto, SignUpDto, TwoFactorChallengeDto, TwoFactorSignInDto } from 'src/modules/auth/dto/auth.dto';
import { PasskeySignInDto } from 'src/modules/passkeys/dto/passkey.dto';
import { PasskeyOptionsResponseDto } from 'src/modules/passkeys/dto/webauthn.dto';
import { PasskeysService } from 'src/modules/passkeys/passkeys.service';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { ClientMeta, SignedIn, SignInService } from 'src/modules/auth/sign-in.service';
import { toSessionResponse } from 'src/modules/sessions/dto/session-response.dto';
import { SessionsService } from 'src/modules/sessions/sessions.service';
import { PanelSettings } from 'src/modules/settings/panel-settings.service';
import { AdminRoles } from 'src/modules/roles/admin-roles';
import { adminAccessOf } from 'src/modules/roles/admin-grants';
import { toUserResponse } from 'src/modules/users/dto/user-response.dto';

const meta = (req: HttpRequest): ClientMeta => ({ ip: req.ip, userAgent: headerOf(req, 'user-agent') });

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly signIns: SignInService,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly settings: PanelSettings,
    private readonly roles: AdminRoles,
    private readonly twoFactorSteps: TwoFactorService,
    private readonly passkeys: PasskeysService,
  ) {}

  @Post('sign-up/email')
  @Public()
  @RequireCaptcha()
  @ApiData(SignedUpDto, { status: 201 })
  async signUp(@Body() dto: SignUpDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ data: SignedUpDto }> {
    const signedIn = await this.signIns.signUp(dto, meta(req));
    this.auth.setSessionCookie(res, signedIn.token, signedIn.session);
    return { data: { user: toUserResponse(signedIn.user) } };
  }

  @Post('sign-in/email')
  @HttpCode(200)
  @Public()
  @RequireCaptcha()
  @ApiData(SignedInDto)
  async signInEmail(@Body() dto: SignInEmailDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ data: SignedInDto }> {
    return this.respond(await this.signIns.signIn({ email: dto.email }, dto.password, dto.totp, meta(req)), res);
  }

  @Post('sign-in/username')
  @HttpCode(200)
  @Public()
  @RequireCaptcha()
  @ApiData(SignedInDto)
  async signInUsername(@Body() dto: SignInUsernameDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ data: SignedInDto }> {
    return this.respond(await this.signIns.signIn({ username: dto.username }, dto.password, dto.totp, meta(req)), res);
  }

  /** The second step of a two-factor sign-in, a code or a passkey: no password and no CAPTCHA, the challenge stands for them. */
  @Post('two-factor')
  @HttpCode(200)
  @Public()
  @ApiData(SignedInDto)
  async twoFactor(@Body() dto: TwoFactorSignInDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ data: SignedInDto }> {
    return this.respond(await this.signIns.completeTwoFactor(dto.challenge, dto.passkey ? { passkey: dto.passkey } : { code: dto.code ?? '' }, meta(req)), res);
  }

  /** Options to answer a two-factor sign-in's challenge with one of the user's passkeys; counts no attempt. */
  @Post('two-factor/passkey-options')
  @HttpCode(200)
  @Public()
  @ApiData(PasskeyOptionsResponseDto)
  async twoFactorPasskeyOptions(@Body() dto: TwoFactorChallengeDto): Promise<{ data: PasskeyOptionsResponseDto }> {
    return { data: { options: await this.twoFactorSteps.passkeyOptions(dto.challenge) } };
  }

  /**
   * Options for a sign-in by passkey alone (discoverable credentials, user verification required).
   * No CAPTCHA here or below, as on the two-factor step: a passkey cannot be guessed, so there is nothing for a bot to try.
   */
  @Post('passkey/options')
  @HttpCode(200)
  @Public()
  @ApiData(PasskeyOptionsResponseDto)
  async passkeyOptions(): Promise<{ data: PasskeyOptionsResponseDto }> {
    return { data: { options: await this.passkeys.signInOptions() } };
  }

  /** A sign-in by passkey alone: the session a password sign-in (with its second step) opens. */
  @Post('passkey')
  @HttpCode(200)
  @Public()
  @ApiData(SignedInDto)
  async passkey(@Body() dto: PasskeySignInDto, @Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpReply): Promise<{ data: SignedInDto }> {
    return this.respond(await this.signIns.signInWithPasskey(dto.response, meta(req)), res);
  }

  @Post('sign-out')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true, twoFactorSetup: true })
  async signOut(@CurrentAuth() auth: AuthContext, @Res({ passthrough: true }) res: HttpReply): Promise<void> {
    const { user, session } = requireSession(auth);
    await this.sessions.revoke(user.id, session.id);
    this.auth.clearSessionCookie(res);
  }

  @Get('session')
  @Authenticated({ sessionOnly: true, twoFactorSetup: true })
  @ApiData(SessionStateDto)
  session(@CurrentAuth() current: AuthContext): { data: SessionStateDto } {
    const auth = requireSession(current);
    return {
      data: {
        user: toUserResponse(auth.user),
        session: { ...toSessionResponse(auth.session, auth.session.id), fresh: this.sessions.isFresh(auth.session) },
        twoFactorSetupRequired: this.settings.holdsForTwoFactorSetup(auth.user),
        adminAccess: adminAccessOf(this.roles.grantsOfUser(auth.user)),
      },
    };
  }

  private respond(signedIn: SignedIn, res: HttpReply): { data: SignedInDto } {
    this.auth.setSessionCookie(res, signedIn.token, signedIn.session);
    return {
      data: {
        user: toUserResponse(signedIn.user),
        session: { id: signedIn.session.id, expiresAt: signedIn.session.expiresAt.toISOString() },
        twoFactorSetupRequired: this.settings.holdsForTwoFactorSetup(signedIn.user),
      },
    };
  }
}
