import { describe, expect, it } from 'vitest';
import { createQueryClient, shouldRetry } from '@/app/query-client';
import { sessionQuery } from '@/features/auth/api';
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

describe('createQueryClient', () => {
  it('should reload the session when an answer says the two-factor policy holds the user, and not otherwise', async () => {
    const client = createQueryClient();
    const session = () => client.getQueryState(sessionQuery.queryKey)?.isInvalidated;
    client.setQueryData(sessionQuery.queryKey, { twoFactorSetupRequired: false } as never);
    await client.fetchQuery({ queryKey: ['other'], queryFn: () => Promise.reject(new ApiError(404, 'SERVER_NOT_FOUND', 'gone')), retry: false }).catch(() => undefined);
    expect(session()).toBe(false);
    await client.fetchQuery({ queryKey: ['servers'], queryFn: () => Promise.reject(new ApiError(403, 'TWO_FACTOR_SETUP_REQUIRED', 'set one up')), retry: false }).catch(() => undefined);
    expect(session()).toBe(true);
  });
});
