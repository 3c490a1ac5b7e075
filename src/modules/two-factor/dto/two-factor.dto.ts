import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** A 6-digit code from the authenticator app, or a recovery code (as sign-in takes them). */
export const IsTwoFactorCode = (): PropertyDecorator =>
  applyDecorators(IsString(), Matches(/^[A-Za-z0-9-]{6,32}$/, { message: 'code must be a 6-digit code or a recovery code' }));

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
