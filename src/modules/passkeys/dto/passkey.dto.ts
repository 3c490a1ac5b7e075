import { Transform, Type } from 'class-transformer';
import { IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { AuthenticationCredentialDto, RegistrationCredentialDto } from 'src/modules/passkeys/dto/webauthn.dto';
import type { PasskeyEntity } from 'src/modules/passkeys/passkey.entity';

const NAME_MESSAGE = 'name must be 1 to 100 characters';
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export class CreatePasskeyDto {
  /** What the user calls it ("Laptop", "Phone"). */
  @Transform(trim)
  @IsString({ message: NAME_MESSAGE })
  @MinLength(1, { message: NAME_MESSAGE })
  @MaxLength(100, { message: NAME_MESSAGE })
  name!: string;

  /** The browser's answer to the options of `POST /api/account/passkeys/options`. */
  @IsObject()
  @ValidateNested()
  @Type(() => RegistrationCredentialDto)
  response!: RegistrationCredentialDto;
}

export class RenamePasskeyDto {
  @Transform(trim)
  @IsString({ message: NAME_MESSAGE })
  @MinLength(1, { message: NAME_MESSAGE })
  @MaxLength(100, { message: NAME_MESSAGE })
  name!: string;
}

/** A sign-in by passkey alone: the browser's answer to the options of `POST /api/auth/passkey/options`. */
export class PasskeySignInDto {
  @IsObject()
  @ValidateNested()
  @Type(() => AuthenticationCredentialDto)
  response!: AuthenticationCredentialDto;
}

export class PasskeyResponseDto {
  id!: string;
  name!: string;
  /** Whether the passkey provider syncs it between devices. */
  backedUp!: boolean;
  transports!: string[];
  createdAt!: string;
  /** The last sign-in (or second step) it made; null if never used. */
  lastUsedAt!: string | null;
}

export const toPasskeyResponse = (p: PasskeyEntity): PasskeyResponseDto => ({
  id: p.id,
  name: p.name,
  backedUp: p.backedUp,
  transports: p.transports,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});
