import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from 'src/common/validation/decorators';
import { AUTH_PROVIDER_TYPES, AuthProviderEntity, type AuthProviderType, UserIdentityEntity } from 'src/modules/oauth/auth-provider.entity';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const lowerEach = Transform(({ value }: { value: unknown }): unknown => (Array.isArray(value) ? (value as unknown[]).map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)) : value));

export class CreateAuthProviderDto {
  /** Shown on the buttons: "Continue with <name>". */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  name!: string;

  /** `oidc`: any OpenID Connect issuer (discovered). The others are presets that fix their issuer and endpoints. */
  @ApiProperty({ enum: AUTH_PROVIDER_TYPES })
  @IsIn(AUTH_PROVIDER_TYPES, { message: `type must be one of: ${AUTH_PROVIDER_TYPES.join(', ')}` })
  type!: AuthProviderType;

  /** `oidc` only (required there): the issuer URL, https; discovery must succeed. Presets ignore it. */
  @Optional()
  @IsString()
  @MaxLength(2048)
  issuer?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  clientId!: string;

  /** Sealed at rest and never answered. */
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  clientSecret!: string;

  /** Default: the type's (`openid email profile` for OpenID Connect). */
  @Optional()
  @IsArray()
  @ArrayMaxSize(32)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(/^[\x21-\x7e]{1,128}$/, { each: true, message: 'each scope must be 1 to 128 printable characters without spaces' })
  scopes?: string[];

  /** Default true. */
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  /** Default true: a button on the sign-in page. Off, the provider still links from account pages. */
  @Optional()
  @IsBoolean()
  showOnSignIn?: boolean;

  /** Default false: whether a sign-in with an unknown identity creates an account. */
  @Optional()
  @IsBoolean()
  allowRegistration?: boolean;

  /** E-mail domains (lower case) that may create accounts and link; empty: any. */
  @Optional()
  @lowerEach
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(DOMAIN, { each: true, message: 'each of allowedDomains must be a domain name such as example.com' })
  allowedDomains?: string[];
}

/** Any field but the type; `clientSecret` replaces the secret, left out it is kept. */
export class UpdateAuthProviderDto extends PartialType(OmitType(CreateAuthProviderDto, ['type'] as const), { skipNullProperties: false }) {}

/** A provider as administrators see it: never its secret. */
export class AuthProviderDto {
  id!: string;
  name!: string;
  @ApiProperty({ enum: AUTH_PROVIDER_TYPES })
  type!: AuthProviderType;
  issuer!: string;
  clientId!: string;
  /** Always true: a provider has a secret, which is never shown. */
  clientSecretSet!: boolean;
  scopes!: string[];
  enabled!: boolean;
  showOnSignIn!: boolean;
  allowRegistration!: boolean;
  allowedDomains!: string[];
  /** What to register at the provider: `<APP_URL>/api/auth/oauth/<id>/callback`. */
  redirectUri!: string;
  createdAt!: string;
  updatedAt!: string;
}

export const toAuthProviderResponse = (p: AuthProviderEntity, redirectUri: string): AuthProviderDto => ({
  id: p.id,
  name: p.name,
  type: p.type,
  issuer: p.issuer,
  clientId: p.clientId,
  clientSecretSet: true,
  scopes: p.scopes,
  enabled: p.enabled,
  showOnSignIn: p.showOnSignIn,
  allowRegistration: p.allowRegistration,
  allowedDomains: p.allowedDomains,
  redirectUri,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** What the sign-in page and the account page need of a provider. */
export class PublicAuthProviderDto {
  id!: string;
  name!: string;
  @ApiProperty({ enum: AUTH_PROVIDER_TYPES })
  type!: AuthProviderType;
}

export const toPublicAuthProvider = (p: AuthProviderEntity): PublicAuthProviderDto => ({ id: p.id, name: p.name, type: p.type });

/** One of the caller's linked identities. */
export class IdentityDto {
  id!: string;
  provider!: PublicAuthProviderDto;
  /** The e-mail address the provider gave at the last sign-in. */
  email!: string | null;
  createdAt!: string;
  lastUsedAt!: string | null;
}

export const toIdentityResponse = (i: UserIdentityEntity & { provider: AuthProviderEntity }): IdentityDto => ({
  id: i.id,
  provider: toPublicAuthProvider(i.provider),
  email: i.email,
  createdAt: i.createdAt.toISOString(),
  lastUsedAt: i.lastUsedAt?.toISOString() ?? null,
});

export class OAuthStartQueryDto {
  /** From the account page, with its session: link this provider to the signed-in account. */
  @Optional()
  @IsIn(['true', 'false'])
  link?: string;

  /** Where to land after signing in: a path of the panel. */
  @Optional()
  @IsString()
  @MaxLength(512)
  // No second slash or backslash after the first, no space or control character (browsers drop tabs
  // and newlines, which would make `/<tab>/host` a link to another site).
  @Matches(/^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/, { message: 'returnTo must be a path of the panel' })
  returnTo?: string;
}
