import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class EnableTwoFactorDto {
  /** The current 6-digit code from the authenticator app. */
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be the 6-digit code from the authenticator app' })
  code!: string;
}

export class DisableTwoFactorDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}
