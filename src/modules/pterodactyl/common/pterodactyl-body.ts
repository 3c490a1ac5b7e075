import { createParamDecorator, ExecutionContext, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory } from 'src/common/errors/error-codes';
import { PTERODACTYL_VALIDATION_STATUS, PterodactylFieldError } from 'src/common/errors/pterodactyl-error-body';
import { HttpRequest } from 'src/common/http/http';

const VALIDATION = { code: 'PTERODACTYL_VALIDATION_FAILED', category: ErrorCategory.BAD_REQUEST, message: 'The given data was invalid.' };

/** Laravel's name for a field in a message: `first_name` → `first name`. */
const spoken = (field: string): string => field.replace(/_/g, ' ');

/** class-validator's constraint → Laravel's rule name and message (Laravel's en/validation.php wording). */
const RULES: Record<string, (field: string, args: string) => [string, string]> = {
  isDefined: (f) => ['required', `The ${f} field is required.`],
  isNotEmpty: (f) => ['required', `The ${f} field is required.`],
  isString: (f) => ['string', `The ${f} must be a string.`],
  isEmail: (f) => ['email', `The ${f} must be a valid email address.`],
  isInt: (f) => ['integer', `The ${f} must be an integer.`],
  isNumber: (f) => ['numeric', `The ${f} must be a number.`],
  isBoolean: (f) => ['boolean', `The ${f} field must be true or false.`],
  isArray: (f) => ['array', `The ${f} must be an array.`],
  isObject: (f) => ['array', `The ${f} must be an array.`],
  isIn: (f) => ['in', `The selected ${f} is invalid.`],
  isEnum: (f) => ['in', `The selected ${f} is invalid.`],
  matches: (f) => ['regex', `The ${f} format is invalid.`],
  min: (f, n) => ['min', `The ${f} must be at least ${n}.`],
  max: (f, n) => ['max', `The ${f} must not be greater than ${n}.`],
  minLength: (f, n) => ['min', `The ${f} must be at least ${n} characters.`],
  maxLength: (f, n) => ['max', `The ${f} must not be greater than ${n} characters.`],
  arrayMaxSize: (f, n) => ['max', `The ${f} must not have more than ${n} items.`],
  arrayMinSize: (f, n) => ['min', `The ${f} must have at least ${n} items.`],
};

const KIND_FIRST = ['isDefined', 'isNotEmpty', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isEmail', 'isIn', 'isEnum'];

/** The bound a size constraint's message names (`must be shorter than or equal to 191 characters`). */
const boundOf = (message: string): string => /(-?\d+(?:\.\d+)?)/.exec(message)?.[1] ?? '';

const toFieldErrors = (errors: ValidationError[], parent = ''): PterodactylFieldError[] =>
  errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const constraints = Object.entries(e.constraints ?? {});
    const chosen = (e.value === undefined || e.value === null) && constraints.length > 0 ? (['isDefined', ''] as [string, string]) : (constraints.find(([name]) => KIND_FIRST.includes(name)) ?? constraints[0]);
    const own: PterodactylFieldError[] = [];
    if (chosen) {
      const [name, message] = chosen;
      const rule = RULES[name];
      const [ruleName, detail] = rule ? rule(spoken(field), boundOf(message)) : [name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), message];
      own.push({ field, rule: ruleName, detail });
    }
    return [...own, ...toFieldErrors(e.children ?? [], field)];
  });

/** A 422 in Pterodactyl's shape, for rules a service checks (`unique`, `exists`). */
export const pterodactylValidationError = (errors: PterodactylFieldError[]): AppException =>
  new AppException(VALIDATION, { status: PTERODACTYL_VALIDATION_STATUS, details: errors });

/** `email` is taken, as Laravel's `unique` rule says it. */
export const uniqueViolation = (field: string): AppException =>
  pterodactylValidationError([{ field, rule: 'unique', detail: `The ${spoken(field)} has already been taken.` }]);

/** `field` names no existing record, as Laravel's `exists` rule says it. */
export const existsViolation = (field: string): AppException =>
  pterodactylValidationError([{ field, rule: 'exists', detail: `The selected ${spoken(field)} is invalid.` }]);

/**
 * The request body, validated against `dto` as Pterodactyl validates: fields the DTO does not name are
 * dropped (Pterodactyl's clients send fields a route does not read), failures are a 422 naming each
 * field and rule. Hatchery's global pipe does not run on this decorator.
 */
export const PterodactylBody = createParamDecorator(<T extends object>(dto: Type<T>, ctx: ExecutionContext): T => {
  const raw = ctx.switchToHttp().getRequest<HttpRequest>().body;
  const plain = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const instance = plainToInstance(dto, plain, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: false, validationError: { target: false } });
  if (errors.length > 0) {
    throw pterodactylValidationError(toFieldErrors(errors));
  }
  return instance;
});
