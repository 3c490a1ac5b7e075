import { describe, expect, it, vi } from 'vitest';
import { forgetPolicyReload, reloadForBlockedConnection } from '@/features/console/policy-reload';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
};

describe('reloadForBlockedConnection', () => {
  it('should reload once per blocked node origin, and again after a console connected', () => {
    const deps = { storage: memoryStorage(), reload: vi.fn() };
    const blocked = { effectiveDirective: 'connect-src', blockedURI: 'wss://node.example.test:8443/api/servers/abc/ws' };
    expect(reloadForBlockedConnection(blocked, deps)).toBe(true);
    expect(reloadForBlockedConnection(blocked, deps)).toBe(false);
    expect(reloadForBlockedConnection({ ...blocked, blockedURI: 'wss://other.example.test:8443/ws' }, deps)).toBe(true);
    forgetPolicyReload(deps);
    expect(reloadForBlockedConnection({ ...blocked, blockedURI: 'wss://other.example.test:8443/ws' }, deps)).toBe(true);
    expect(deps.reload).toHaveBeenCalledTimes(3);
  });

  it('should leave other directives and unreadable addresses alone', () => {
    const deps = { storage: memoryStorage(), reload: vi.fn() };
    expect(reloadForBlockedConnection({ effectiveDirective: 'img-src', blockedURI: 'https://x.example.test/a.png' }, deps)).toBe(false);
    expect(reloadForBlockedConnection({ effectiveDirective: 'connect-src', blockedURI: 'inline' }, deps)).toBe(false);
    expect(deps.reload).not.toHaveBeenCalled();
  });
});
