import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsAccountEmail, IsPassword } from 'src/modules/users/dto/user-fields';

export class ForgetPasswordDto {
  @IsAccountEmail()
  email!: string;
}

export class ResetPasswordDto {
  /** The `token` of the e-mailed link. */
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token!: string;

  @IsPassword()
  newPassword!: string;
}

export class ForgetPasswordResponseDto {
  message!: string;
}
