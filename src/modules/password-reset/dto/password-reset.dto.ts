import { IsString, MaxLength, MinLength } from 'class-validator';
import { MailDeliveryDto } from 'src/modules/mail/dto/mail-delivery.dto';
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

/** A one-time "choose your password" link an administrator hands over. */
export class PasswordLinkResponseDto {
  /** The link; shown this once (only its hash is stored). Using it sets the password and ends it. */
  url!: string;
  /** When the link stops working unless used before. */
  expiresAt!: string;
}

/** What became of the e-mailed link with which an account without a password chooses one. */
export class OwnPasswordLinkResponseDto extends MailDeliveryDto {
  /** The address it went (or would have gone) to: the account's. */
  email!: string;
}
