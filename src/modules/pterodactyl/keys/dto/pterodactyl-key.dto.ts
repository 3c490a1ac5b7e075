import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested, ValidatorConstraint, ValidatorConstraintInterface, Validate } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { Optional } from 'src/common/validation/decorators';
import { PterodactylKeyEntity, PterodactylKeyType } from 'src/modules/pterodactyl/keys/pterodactyl-key.entity';

@ValidatorConstraint({ name: 'isIpOrCidr' })
class IsIpOrCidr implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string' || value.length > 64) {
      return false;
    }
    return value.includes('/') ? ipaddr.isValidCIDR(value) : ipaddr.isValid(value);
  }

  defaultMessage(): string {
    return 'each value in allowedIps must be an IP address or a CIDR range';
  }
}

const ACCESS = [0, 1, 2, 3];

/** Per resource: 0 none, 1 read, 2 write, 3 read and write (Pterodactyl's r_<resource> values). */
class ApplicationKeyPermissionsDto {
  @Optional() @IsIn(ACCESS) servers?: number;
  @Optional() @IsIn(ACCESS) nodes?: number;
  @Optional() @IsIn(ACCESS) allocations?: number;
  @Optional() @IsIn(ACCESS) users?: number;
  @Optional() @IsIn(ACCESS) locations?: number;
  @Optional() @IsIn(ACCESS) nests?: number;
  @Optional() @IsIn(ACCESS) eggs?: number;
  @Optional() @IsIn(ACCESS) database_hosts?: number;
  @Optional() @IsIn(ACCESS) server_databases?: number;
}

export class CreateClientKeyDto {
  /** What the key is for (Pterodactyl's description/memo). */
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  description!: string;

  /** Addresses or CIDR ranges the key may be used from; empty or absent: any. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @Validate(IsIpOrCidr, { each: true })
  allowedIps?: string[];
}

export class CreateApplicationKeyDto extends CreateClientKeyDto {
  /** Default: none (a key that can read nothing, as Pterodactyl's form starts). */
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => ApplicationKeyPermissionsDto)
  permissions?: ApplicationKeyPermissionsDto;
}

export class PterodactylKeyResponseDto {
  identifier!: string;
  description!: string;
  allowedIps!: string[];
  /** Application keys: resource → 0..3; client keys: absent. */
  permissions?: Record<string, number>;
  lastUsedAt!: string | null;
  createdAt!: string;
}

export class CreatedPterodactylKeyResponseDto extends PterodactylKeyResponseDto {
  /** The key (identifier and token); shown only in this response. */
  key!: string;
}

export const toPterodactylKeyResponse = (key: PterodactylKeyEntity): PterodactylKeyResponseDto => ({
  identifier: key.identifier,
  description: key.memo,
  allowedIps: key.allowedIps,
  ...(key.keyType === PterodactylKeyType.APPLICATION
    ? { permissions: Object.fromEntries(Object.entries(key.permissions).map(([name, value]) => [name.replace(/^r_/, ''), value])) }
    : {}),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  createdAt: key.createdAt.toISOString(),
});
