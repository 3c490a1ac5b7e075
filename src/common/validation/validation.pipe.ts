import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';

export interface FieldError {
  field: string;
  message: string;
}

export const flattenValidationErrors = (errors: ValidationError[], parent = ''): FieldError[] =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
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
    // One message per field: the first rule it breaks.
    stopAtFirstError: true,
    exceptionFactory: (errors) =>
      new AppException(CommonError.VALIDATION_FAILED, { details: flattenValidationErrors(errors) }),
  });
