import { describe, expect, it } from 'vitest';
import { ApiError, fieldErrors } from '@/lib/api/api-error';
import { describeError } from '@/lib/errors';
import { i18n } from '@/lib/i18n/i18n';

const t = i18n.t;

describe('describeError', () => {
  it('should translate a known code and keep the request id', () => {
    const error = new ApiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password', 'req-1');
    expect(describeError(error, t, 'en')).toEqual({
      code: 'INVALID_CREDENTIALS',
      requestId: 'req-1',
      message: 'The e-mail or username and password do not match.',
    });
  });

  it("should show the panel's own message for a code it has no text for", () => {
    const error = new ApiError(409, 'SUBUSER_EXISTS', 'That user is already a subuser of this server', 'req-2');
    expect(describeError(error, t).message).toBe('That user is already a subuser of this server');
  });

  it("should show the panel's own words for an untrusted origin, which name the address it expects", () => {
    const message = 'This panel expects requests from http://localhost:3000 (APP_URL); this request came from http://localhost:8080. Set APP_URL to the address you open the panel at.';
    expect(describeError(new ApiError(403, 'UNTRUSTED_ORIGIN', message, 'req-4'), t).message).toBe(message);
    // Without them, our own text.
    expect(describeError(new ApiError(403, 'UNTRUSTED_ORIGIN', '', 'req-5'), t).message).toBe(
      "This page was not opened at the panel's own address. Open the panel at the address it was set up with (APP_URL) and try again.",
    );
  });

  it('should say when a rate limit ends', () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'Too many requests', 'req-3', undefined, 125);
    expect(describeError(error, t, 'en').message).toBe('Too many attempts. Try again in 2 min 5 sec.');
  });

  it('should explain a request that never got an answer', () => {
    expect(describeError(ApiError.network(new TypeError('Failed to fetch')), t).message).toBe(
      'The panel did not answer. Check your connection and try again.',
    );
  });

  it('should fall back to the message of any other error', () => {
    expect(describeError(new Error('boom'), t)).toEqual({ message: 'boom' });
    expect(describeError('weird', t)).toEqual({ message: 'Something went wrong' });
  });
});

describe('ApiError.fromResponse', () => {
  it("should read the panel's error shape and the rate-limit reset", () => {
    const response = new Response(null, { status: 429, headers: { 'x-ratelimit-reset': '42', 'x-request-id': 'hdr' } });
    const error = ApiError.fromResponse(response, { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many', requestId: 'body' });
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Too many', requestId: 'body', retryAfterS: 42 });
  });

  it('should keep the status of an answer that is not the panel shape', () => {
    const response = new Response('<html>', { status: 502, statusText: 'Bad Gateway', headers: { 'x-request-id': 'hdr' } });
    expect(ApiError.fromResponse(response, undefined)).toMatchObject({ status: 502, code: 'HTTP_502', message: 'Bad Gateway', requestId: 'hdr' });
  });
});

describe('fieldErrors', () => {
  it('should map VALIDATION_FAILED details onto fields, first message wins', () => {
    const error = new ApiError(400, 'VALIDATION_FAILED', 'Validation failed', 'r', [
      { field: 'newPassword', message: 'too short' },
      { field: 'newPassword', message: 'second' },
      { field: 'token', message: 'required' },
      'junk',
    ]);
    expect(fieldErrors(error)).toEqual({ newPassword: 'too short', token: 'required' });
  });

  it('should be empty for other errors', () => {
    expect(fieldErrors(new ApiError(400, 'BAD_REQUEST', 'x', 'r', [{ field: 'a', message: 'b' }]))).toEqual({});
  });
});
