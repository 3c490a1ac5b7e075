import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { IsAccountEmail, IsDisplayName, IsPassword, IsUsername } from 'src/modules/users/dto/user-fields';

export class CreateUserDto {
  @IsUsername()
  username!: string;

  @IsAccountEmail()
  email!: string;

  @Optional()
  @IsDisplayName()
  name?: string;

  /** Without a password the account cannot sign in until one is set (by an admin, or by a reset). */
  @Optional()
  @IsPassword()
  password?: string;

  @Optional()
  @IsBoolean()
  admin?: boolean;

  /** The id an outside system (a billing system) knows the account by; unique. null clears it. */
  @Optional({ nullable: true })
  @IsString()
  @MinLength(1)
  @MaxLength(191)
  externalId?: string | null;
}
