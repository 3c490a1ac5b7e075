import { IsObject, IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { IsAccountEmail, IsDisplayName, IsPassword, IsUsername } from 'src/modules/users/dto/user-fields';
import { Transform, Type } from 'class-transformer';
import { AuthenticationCredentialDto } from 'src/modules/passkeys/dto/webauthn.dto';

export class SignUpDto {
  @IsDisplayName()
  name!: string;

  @IsUsername()
  username!: string;

  @IsAccountEmail()
  email!: string;

  @IsPassword()
  password!: string;
}

/** A password as typed at sign-in: only bounded, so old accounts with other rules can still sign in. */
class SignInBase {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;

  /** Two-factor code, once two-factor sign-in is enabled for the account. */
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z0-9-]{6,32}$/, { message: 'totp must be a 6-digit code or a recovery code' })
  totp?: string;
}

export class SignInEmailDto extends SignInBase {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  email!: string;
}

export class SignInUsernameDto extends SignInBase {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  username!: string;
}

const CHALLENGE_MESSAGE = 'challenge must be the challenge the sign-in answered';
const CODE_MESSAGE = 'code must be a 6-digit code or a recovery code';

/** Options for answering a two-factor sign-in's challenge with a passkey (`POST /api/auth/two-factor/passkey-options`). */
export class TwoFactorChallengeDto {
  /** `details.challenge` of the sign-in's 401 TWO_FACTOR_REQUIRED. */
  @IsString({ message: CHALLENGE_MESSAGE })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: CHALLENGE_MESSAGE })
  challenge!: string;
}

/** The second step of a two-factor sign-in (`POST /api/auth/two-factor`): a code, or a passkey, not both. */
export class TwoFactorSignInDto extends TwoFactorChallengeDto {
  /** The 6-digit code from the authenticator app, or a recovery code. */
  @ValidateIf((o: TwoFactorSignInDto) => o.passkey === undefined || o.code !== undefined)
  @IsString({ message: CODE_MESSAGE })
  @Matches(/^[A-Za-z0-9-]{6,32}$/, { message: CODE_MESSAGE })
  @ValidateBy({
    name: 'notWithPasskey',
    validator: { validate: (_value, args) => (args?.object as TwoFactorSignInDto).passkey === undefined, defaultMessage: () => 'give either code or passkey, not both' },
  })
  code?: string;

  /** A passkey's answer to the options of `POST /api/auth/two-factor/passkey-options`, instead of a code. */
  @ValidateIf((o: TwoFactorSignInDto) => o.passkey !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => AuthenticationCredentialDto)
  passkey?: AuthenticationCredentialDto;
}
