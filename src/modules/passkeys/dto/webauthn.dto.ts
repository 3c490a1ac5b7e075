import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** A base64url field of a credential (ids, client data, signatures); bounded well above what authenticators send. */
const base64url = (max: number): PropertyDecorator[] => [
  IsString(),
  MinLength(1),
  MaxLength(max),
  Matches(BASE64URL, { message: '$property must be base64url' }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

class AuthenticatorAttestationResponseDto {
  @apply(base64url(4_096))
  clientDataJSON!: string;

  @apply(base64url(65_536))
  attestationObject!: string;

  @Optional()
  @apply(base64url(65_536))
  authenticatorData?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  transports?: string[];

  @Optional()
  @IsInt()
  publicKeyAlgorithm?: number;

  @Optional()
  @apply(base64url(4_096))
  publicKey?: string;
}

class AuthenticatorAssertionResponseDto {
  @apply(base64url(4_096))
  clientDataJSON!: string;

  @apply(base64url(4_096))
  authenticatorData!: string;

  @apply(base64url(2_048))
  signature!: string;

  @Optional()
  @apply(base64url(128))
  userHandle?: string;
}

/** What `navigator.credentials.*` answered, as JSON (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser's result). */
abstract class CredentialDto {
  /** The credential id, base64url. */
  @apply(base64url(1_366))
  id!: string;

  @apply(base64url(1_366))
  rawId!: string;

  @IsIn(['public-key'])
  type!: 'public-key';

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  clientExtensionResults!: Record<string, unknown>;

  @Optional()
  @IsIn(['platform', 'cross-platform'])
  authenticatorAttachment?: 'platform' | 'cross-platform';
}

/** A new passkey: `navigator.credentials.create()`'s answer. */
export class RegistrationCredentialDto extends CredentialDto {
  @ValidateNested()
  @Type(() => AuthenticatorAttestationResponseDto)
  response!: AuthenticatorAttestationResponseDto;
}

/** A passkey's signature: `navigator.credentials.get()`'s answer. */
export class AuthenticationCredentialDto extends CredentialDto {
  @ValidateNested()
  @Type(() => AuthenticatorAssertionResponseDto)
  response!: AuthenticatorAssertionResponseDto;
}

/** Options for `navigator.credentials.create()` / `.get()` (`PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`). */
export class PasskeyOptionsResponseDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  options!: Record<string, unknown>;
}
