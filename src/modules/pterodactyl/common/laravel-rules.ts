import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt } from 'class-validator';

const TRUE = new Set<unknown>([true, 1, '1', 'true']);
const FALSE = new Set<unknown>([false, 0, '0', 'false']);

/** Laravel's `boolean`: true, false, 1, 0, "1", "0" (and "true"/"false", which PHP clients send too). */
export const LaravelBoolean = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (TRUE.has(value) ? true : FALSE.has(value) ? false : value)),
    IsBoolean(),
  );

/** Laravel's `integer`/`numeric` for whole numbers: a number, or a string of digits (form-encoded clients). */
export const LaravelInt = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value)),
    IsInt(),
  );
