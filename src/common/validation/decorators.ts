import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';

/** Optional field; with `nullable`, an explicit null is accepted too. */
export const Optional = ({ nullable }: { nullable?: boolean } = {}): PropertyDecorator =>
  nullable ? IsOptional() : ValidateIf((_obj, value) => value !== undefined);

/** Query-string integer: "12" → 12; anything else stays as is and fails validation. */
export const QueryInt = ({ min, max }: { min?: number; max?: number }): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value)),
    IsInt(),
    ...(min !== undefined ? [Min(min)] : []),
    ...(max !== undefined ? [Max(max)] : []),
  );

