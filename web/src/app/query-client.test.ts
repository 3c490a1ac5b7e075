import { describe, expect, it } from 'vitest';
import { shouldRetry } from '@/app/query-client';
import { ApiError, NETWORK_ERROR } from '@/lib/api/api-error';

describe('shouldRetry', () => {
  it('should retry network failures and 5xx twice', () => {
    const network = new ApiError(0, NETWORK_ERROR, 'Failed to fetch');
    expect(shouldRetry(0, network)).toBe(true);
    expect(shouldRetry(1, new ApiError(502, 'DAEMON_UNAVAILABLE', 'down'))).toBe(true);
    expect(shouldRetry(2, network)).toBe(false);
  });

  it('should never retry a 4xx', () => {
    expect(shouldRetry(0, new ApiError(404, 'SERVER_NOT_FOUND', 'gone'))).toBe(false);
    expect(shouldRetry(0, new ApiError(429, 'RATE_LIMITED', 'slow down'))).toBe(false);
  });
});
