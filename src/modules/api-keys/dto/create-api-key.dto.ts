import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ALL_ADMIN_SCOPES, normalizeScope } from 'src/common/auth/admin-scope';
import { Optional } from 'src/common/validation/decorators';

export class CreateApiKeyDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  /** Days until the key expires: 1 to 90, default 90. */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(90)
  expiresInDays?: number;

  /** Admin scopes; default: every scope the owner holds. `eggs:read` is read as `eggs.read`. */
  @Optional()
  @Transform(({ value }: { value: unknown }): unknown =>
    Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? normalizeScope(v) : v)) : value,
  )
  @IsArray()
  @ArrayMaxSize(ALL_ADMIN_SCOPES.length)
  @IsIn(ALL_ADMIN_SCOPES, { each: true })
  permissions?: string[];
}
