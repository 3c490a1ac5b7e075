import { Controller, Get, HttpCode, Post, Put, Query, Req } from '@nestjs/common';
import { Allow, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { AppException } from 'src/common/errors/app.exception';
import type { HttpRequest } from 'src/common/http/http';
import { AppConfigService } from 'src/config/app-config.service';
import { AccountService } from 'src/modules/account/account.service';
import { ChangeEmailDto } from 'src/modules/account/dto/account.dto';
import { Optional } from 'src/common/validation/decorators';
import { AuditService } from 'src/modules/audit/audit.service';
import type { AuthContext } from 'src/common/auth/auth-context';
import type { Actor } from 'src/common/auth/current-actor.decorator';
import { ClientAccountRoute, ClientActor, ClientAuth } from 'src/modules/pterodactyl/client/client-access';
import { accountActivityItem, clientUserItem } from 'src/modules/pterodactyl/client/client-transformers';
import { filtersOf, FractalPage, includesOf, page, pageOf, withRelationships } from 'src/modules/pterodactyl/common/fractal';
import { PterodactylBody, pterodactylValidationError, uniqueViolation } from 'src/modules/pterodactyl/common/pterodactyl-body';
import { PterodactylError } from 'src/modules/pterodactyl/common/pterodactyl-errors';
import { PterodactylController } from 'src/modules/pterodactyl/common/pterodactyl-route';
import { translating } from 'src/modules/pterodactyl/common/translate';
import { DisableTwoFactorDto, EnableTwoFactorDto, IsTwoFactorCode } from 'src/modules/two-factor/dto/two-factor.dto';
import { TwoFactorError } from 'src/modules/two-factor/two-factor.errors';
import { TwoFactorService } from 'src/modules/two-factor/two-factor.service';
import { IsPassword } from 'src/modules/users/dto/user-fields';
import { UserError } from 'src/modules/users/users.errors';

/** Pterodactyl's UpdateEmailRequest with Hatchery's rules (ChangeEmailDto), and the two-factor `code` (see SECOND_FACTOR). */
class UpdateEmailBody extends ChangeEmailDto {
  @Optional()
  @IsTwoFactorCode()
  code?: string;
}

/** Pterodactyl's UpdatePasswordRequest (`password`: confirmed) with Hatchery's password rules, and the two-factor `code`. */
class UpdatePasswordBody {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  current_password!: string;

  @IsPassword()
  @ValidateBy(
    { name: 'confirmed', validator: { validate: (value: unknown, args) => value === (args?.object as UpdatePasswordBody).password_confirmation } },
    { message: 'The password confirmation does not match.' },
  )
  password!: string;

  /** Read by `password`'s rule only, as Laravel's `confirmed` reads it. */
  @Allow()
  password_confirmation?: unknown;

  @Optional()
  @IsTwoFactorCode()
  code?: string;
}

/** Hatchery's enable body (its 6-digit code rule) plus the password Pterodactyl asks for. */
class EnableTwoFactorBody extends EnableTwoFactorDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/** `?sort=` → oldest first. */
const SORTS = new Map<unknown, boolean>([
  ['timestamp', true],
  ['-timestamp', false],
]);

/**
 * Hatchery changes the e-mail and the password only from a session signed in within 5 minutes, with
 * both factors when two-factor sign-in is on; a key shows both instead: the password, and the current
 * code (or a recovery code) as `code`, which Pterodactyl does not ask.
 */
const SECOND_FACTOR = {
  [TwoFactorError.CODE_REQUIRED.code]: () =>
    pterodactylValidationError([{ field: 'code', rule: 'required', detail: 'The code field is required when two-factor authentication is enabled.' }]),
  [TwoFactorError.INVALID.code]: () => new AppException(PterodactylError.TWO_FACTOR_TOKEN_INVALID),
};

const ALREADY_ENABLED = { [TwoFactorError.ALREADY_ENABLED.code]: () => new AppException(PterodactylError.TWO_FACTOR_ENABLED) };

/**
 * `/pterodactyl/api/client/account`: e-mail, password, two-factor and the activity log
 * (AccountController, TwoFactorController, ActivityLogController). Each calls the service Hatchery's
 * own account routes call, with the same rules; where Hatchery asks a fresh session, these ask the
 * account's password in the body (and SECOND_FACTOR), and the guesses count against the account's
 * rate limits together with its sessions' (docs/pterodactyl-compat.md#account).
 */
@PterodactylController()
@Controller('pterodactyl/api/client/account')
export class PterodactylClientAccountSecurityController {
  constructor(
    private readonly account: AccountService,
    private readonly twoFactor: TwoFactorService,
    private readonly audit: AuditService,
    private readonly config: AppConfigService,
  ) {}

  @Put('email')
  @HttpCode(204)
  @ClientAccountRoute()
  async email(@ClientAuth() auth: AuthContext, @ClientActor() actor: Actor, @PterodactylBody(UpdateEmailBody) body: UpdateEmailBody): Promise<void> {
    await translating(this.account.changeEmail(auth.user, body.email, body.password, actor, { twoFactorCode: body.code }), {
      ...SECOND_FACTOR,
      [UserError.INVALID_PASSWORD.code]: () => new AppException(PterodactylError.INVALID_PASSWORD),
      [UserError.EMAIL_TAKEN.code]: () => uniqueViolation('email'),
    });
  }

  /** Every session of the account ends (a key has none of its own to keep); API keys, Pterodactyl's too, stay. */
  @Put('password')
  @HttpCode(204)
  @ClientAccountRoute()
  async password(@ClientAuth() auth: AuthContext, @ClientActor() actor: Actor, @PterodactylBody(UpdatePasswordBody) body: UpdatePasswordBody): Promise<void> {
    await translating(this.account.changePassword(auth.user, undefined, body.current_password, body.password, actor, { twoFactorCode: body.code }), {
      ...SECOND_FACTOR,
      [UserError.INVALID_PASSWORD.code]: () => new AppException(PterodactylError.INVALID_PASSWORD),
    });
  }

  /** A new pending secret (not in force until confirmed): `image_url_data` is its otpauth:// URI. */
  @Get('two-factor')
  @ClientAccountRoute()
  async twoFactorSetup(@ClientAuth() auth: AuthContext): Promise<{ data: { image_url_data: string; secret: string } }> {
    const { secret, uri } = await translating(this.twoFactor.setup(auth.user), ALREADY_ENABLED);
    return { data: { image_url_data: uri, secret } };
  }

  @Post('two-factor')
  @HttpCode(200)
  @ClientAccountRoute()
  async twoFactorEnable(
    @ClientAuth() auth: AuthContext,
    @ClientActor() actor: Actor,
    @PterodactylBody(EnableTwoFactorBody) body: EnableTwoFactorBody,
  ): Promise<{ object: 'recovery_tokens'; attributes: { tokens: string[] } }> {
    const tokens = await translating(this.twoFactor.enable(auth.user, body.code, actor, body.password), {
      ...ALREADY_ENABLED,
      [UserError.INVALID_PASSWORD.code]: () => new AppException(PterodactylError.TWO_FACTOR_PASSWORD),
      [TwoFactorError.NOT_SET_UP.code]: () => new AppException(PterodactylError.TWO_FACTOR_NOT_SET_UP),
      [TwoFactorError.INCORRECT_CODE.code]: () => new AppException(PterodactylError.TWO_FACTOR_TOKEN_INVALID),
    });
    return { object: 'recovery_tokens', attributes: { tokens } };
  }

  /** The password is checked first; an account without two-factor then answers 204 as Pterodactyl does, with nothing to change or record. */
  @Post('two-factor/disable')
  @HttpCode(204)
  @ClientAccountRoute()
  async twoFactorDisable(@ClientAuth() auth: AuthContext, @ClientActor() actor: Actor, @PterodactylBody(DisableTwoFactorDto) body: DisableTwoFactorDto): Promise<void> {
    try {
      await translating(this.twoFactor.disable(auth.user, body.password, actor), { [UserError.INVALID_PASSWORD.code]: () => new AppException(PterodactylError.TWO_FACTOR_PASSWORD) });
    } catch (e) {
      if (!(e instanceof AppException && e.code === TwoFactorError.NOT_ENABLED.code)) {
        throw e;
      }
    }
  }

  /**
   * What the caller did to their own account (Hatchery's audit log), pages of 25 (at most 100),
   * `filter[event]` anywhere in the event, `sort=timestamp|-timestamp` (newest first by default),
   * `include=actor` (the caller: every entry is theirs).
   */
  @Get('activity')
  @ClientAccountRoute()
  async activity(@ClientAuth() auth: AuthContext, @Query() query: Record<string, unknown>, @Req() req: HttpRequest): Promise<FractalPage> {
    const at = pageOf({ per_page: '25', ...query });
    const oldestFirst = SORTS.get(query.sort ?? '-timestamp');
    if (oldestFirst === undefined) {
      throw new AppException(PterodactylError.INVALID_SORT);
    }
    const { event } = filtersOf(query, ['event'] as const);
    const { data, meta } = await this.audit.ownAccountEvents(auth.user.id, { event, oldestFirst }, at);
    const actor = includesOf(query, ['actor'] as const).has('actor') ? clientUserItem(auth.user) : undefined;
    const items = data.map((e) => (actor ? withRelationships(accountActivityItem(e), { actor }) : accountActivityItem(e)));
    return page(items, meta.pagination.total, at, req, this.config.http.appUrl);
  }
}
