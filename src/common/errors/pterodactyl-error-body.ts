import { HttpStatus } from '@nestjs/common';
import { pathOf } from 'src/common/http/http';

// The error shape of the Pterodactyl-compatible layer (docs/pterodactyl-compat.md#shapes); the global
// filter uses it for every error on the layer's paths, including unknown routes.

/** One failed rule of a body, as Pterodactyl's 422 names it. */
export interface PterodactylFieldError {
  field: string;
  rule: string;
  detail: string;
}

export const PTERODACTYL_VALIDATION_STATUS = HttpStatus.UNPROCESSABLE_ENTITY;

/** Whether a path belongs to the compatibility layer (its errors take Pterodactyl's shape). */
export const isPterodactylPath = (url: string): boolean => {
  const path = pathOf({ url });
  return path === '/pterodactyl' || path.startsWith('/pterodactyl/') || path === '/api/application' || path.startsWith('/api/application/');
};

/** The exception class name Pterodactyl's handler reports for a status (`class_basename` of Symfony's). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'BadRequestHttpException',
  401: 'AuthenticationException',
  403: 'AccessDeniedHttpException',
  404: 'NotFoundHttpException',
  405: 'MethodNotAllowedHttpException',
  409: 'ConflictHttpException',
  413: 'HttpException',
  422: 'ValidationException',
  429: 'TooManyRequestsHttpException',
  503: 'ServiceUnavailableHttpException',
};

/** Errors of the layer that Pterodactyl reports under an exception class of their own, not their status's. */
const CODE_BY_ERROR: Record<string, string> = {
  PTERODACTYL_INVALID_PASSWORD: 'InvalidPasswordProvidedException',
  PTERODACTYL_2FA_TOKEN_INVALID: 'TwoFactorAuthenticationTokenInvalid',
  PTERODACTYL_2FA_REQUIRED: 'TwoFactorAuthRequiredException',
  PTERODACTYL_INVALID_SORT: 'InvalidSortQuery',
  PTERODACTYL_INVALID_FILTER: 'InvalidFilterQuery',
};

/** A 5xx's detail: Pterodactyl never shows the cause of a server-side failure. */
const UNEXPECTED = 'An unexpected error was encountered while processing this request, please try again.';

interface PterodactylErrorBody {
  errors: { code: string; status: string; detail: string; meta?: { source_field: string; rule: string } }[];
}

/** Pterodactyl's `{errors: [...]}` for an error Hatchery's filter has already classified. */
/** Hatchery's own validation failure (400 VALIDATION_FAILED, `details: [{field, message}]`) as Pterodactyl's 422. */
const hatcheryFieldErrors = (code: string, details: unknown): PterodactylFieldError[] | undefined =>
  code === 'VALIDATION_FAILED' && Array.isArray(details)
    ? (details as { field?: unknown; message?: unknown }[]).map((d) => ({
        field: typeof d.field === 'string' ? d.field : '',
        rule: 'invalid',
        detail: typeof d.message === 'string' ? d.message : 'The value is invalid.',
      }))
    : undefined;

/** The status and body Pterodactyl would answer for an error Hatchery's filter has classified. */
export const pterodactylError = (status: number, code: string, message: string, details: unknown): { status: number; body: PterodactylErrorBody } => {
  const fields = hatcheryFieldErrors(code, details);
  return fields
    ? { status: PTERODACTYL_VALIDATION_STATUS, body: pterodactylErrorBody(PTERODACTYL_VALIDATION_STATUS, message, fields) }
    : { status, body: pterodactylErrorBody(status, message, details, CODE_BY_ERROR[code]) };
};

const pterodactylErrorBody = (status: number, message: string, details: unknown, code?: string): PterodactylErrorBody => {
  if (status === Number(PTERODACTYL_VALIDATION_STATUS) && Array.isArray(details)) {
    return {
      errors: (details as PterodactylFieldError[]).map((e) => ({
        code: 'ValidationException',
        status: '422',
        detail: e.detail,
        meta: { source_field: e.field, rule: e.rule },
      })),
    };
  }
  if (status === 404) {
    // Unknown routes and records alike, as Pterodactyl words its ModelNotFoundException.
    return { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'The requested resource could not be found on the server.' }] };
  }
  const detail = status >= 500 && status !== 503 ? UNEXPECTED : message;
  return { errors: [{ code: code ?? CODE_BY_STATUS[status] ?? 'HttpException', status: String(status), detail }] };
};
