import { PartialType } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { IsAccountEmail, IsPassword, IsUsername } from 'src/modules/users/dto/user-fields';
import { LaravelBoolean } from 'src/modules/pterodactyl/common/laravel-rules';

/** Pterodactyl's user body (StoreUserRequest). */
export class StoreUserBody {
  @IsAccountEmail()
  email!: string;

  @IsUsername()
  username!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(191)
  first_name!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(191)
  last_name!: string;

  /** Hatchery's rule (8 to 256 characters) where Pterodactyl has none; null or absent: no password is set. */
  @Optional({ nullable: true })
  @IsPassword()
  password?: string | null;

  @Optional({ nullable: true })
  @IsString()
  @MaxLength(191)
  external_id?: string | null;

  /** The account's language, as Pterodactyl's users.language (char(5)) holds it: `en`, `pt_BR`, `zh-CN`…; `en` when absent. */
  @Optional()
  @IsString()
  @Matches(/^[A-Za-z_-]{2,5}$/)
  language?: string;

  @Optional()
  @LaravelBoolean()
  root_admin?: boolean;
}

/** On update every field is optional (Pterodactyl asks for them all again; clients that send them all still work). */
export class UpdateUserBody extends PartialType(StoreUserBody, { skipNullProperties: false }) {}
