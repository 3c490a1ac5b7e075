/** The panel's error body: `{statusCode, code, message, details?, requestId}` (docs/api.md#errors). */
interface ApiErrorBody {
  statusCode: number;
  code: string;
  message: string;
  details?: unknown;
  requestId?: string;
}

/** The code given to a request that never got an answer (offline, DNS, the panel down). */
export const NETWORK_ERROR = 'NETWORK_ERROR';

const isErrorBody = (value: unknown): value is ApiErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ApiErrorBody).code === 'string' &&
  typeof (value as ApiErrorBody).message === 'string';

/** A failed API call, carrying what the error states show: the code, the message and the request id. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details?: unknown,
    /** Seconds until a rate limit resets (429), from X-RateLimit-Reset or Retry-After. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }

  /** Builds the error from a non-2xx answer; a body that is not the panel's shape keeps the status. */
  static fromResponse(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const reset = Number(response.headers.get('x-ratelimit-reset') ?? response.headers.get('retry-after') ?? NaN);
    const retryAfterS = Number.isFinite(reset) ? reset : undefined;
    if (isErrorBody(body)) {
      return new ApiError(response.status, body.code, body.message, body.requestId ?? requestId, body.details, retryAfterS);
    }
    return new ApiError(response.status, `HTTP_${response.status}`, response.statusText || `HTTP ${response.status}`, requestId, undefined, retryAfterS);
  }

  static network(cause: unknown): ApiError {
    return new ApiError(0, NETWORK_ERROR, cause instanceof Error ? cause.message : String(cause));
  }
}

/** `details` of a TWO_FACTOR_REQUIRED answer, or any object-shaped details, as a record. */
export const detailsRecord = (error: ApiError): Record<string, unknown> =>
  typeof error.details === 'object' && error.details !== null && !Array.isArray(error.details) ? (error.details as Record<string, unknown>) : {};

/** VALIDATION_FAILED details: `[{field, message}]`, for putting each message on its form field. */
export const fieldErrors = (error: ApiError): Record<string, string> => {
  if (error.code !== 'VALIDATION_FAILED' || !Array.isArray(error.details)) {
    return {};
  }
  const out: Record<string, string> = {};
  for (const item of error.details as unknown[]) {
    if (typeof item === 'object' && item !== null) {
      const { field, message } = item as { field?: unknown; message?: unknown };
      if (typeof field === 'string' && typeof message === 'string' && !(field in out)) {
        out[field] = message;
      }
    }
  }
  return out;
};

/** Whether a form shows every field error on its own field (some are, each on a field the form has now); else the error goes above its buttons. */
export const allOnFields = (fields: Record<string, string>, shown: ReadonlySet<string>): boolean =>
  Object.keys(fields).length > 0 && Object.keys(fields).every((field) => shown.has(field));
