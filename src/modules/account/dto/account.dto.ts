import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsAccountEmail, IsPassword } from 'src/modules/users/dto/user-fields';

export class ChangePasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  currentPassword!: string;

  @IsPassword()
  newPassword!: string;
}

export class ChangeEmailDto {
  @IsAccountEmail()
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}
