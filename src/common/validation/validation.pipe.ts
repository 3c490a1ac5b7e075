import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Constraints that say what a value must be. When a field breaks one of these and a size rule too
 * ("must be a string" and "must be shorter than 255"), the first is the message that helps.
 */
const KIND_CONSTRAINTS = new Set([
  'whitelistValidation',
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'isUuid',
  'isEmail',
  'isUrl',
  'isIn',
  'isEnum',
]);

/** One message per field: the kind of value it must be first, else the first rule it breaks. */
export const flattenValidationErrors = (errors: ValidationError[], parent = ''): FieldError[] =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = Object.entries(e.constraints ?? {});
    const chosen = constraints.find(([name]) => KIND_CONSTRAINTS.has(name)) ?? constraints[0];
    const own = chosen ? [{ field, message: chosen[1] }] : [];
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });

/** The one global pipe: unknown fields are refused, never silently dropped. */
export const createValidationPipe = (): ValidationPipe =>
  new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new AppException(CommonError.VALIDATION_FAILED, { details: flattenValidationErrors(errors) }),
  });
