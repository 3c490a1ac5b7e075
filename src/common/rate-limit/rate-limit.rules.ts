/** One row of interface.md §8: requests matching `applies` share `limit` per `windowMs`. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  applies: (method: string, path: string) => boolean;
}

const MINUTE = 60_000;
const under = (prefix: string) => (_method: string, path: string) => path === prefix || path.startsWith(`${prefix}/`);
const exactly = (route: string, method?: string) => (m: string, path: string) => path === route && (method === undefined || m === method);

/**
 * interface.md §8, row by row. Every matching rule counts a request; the global rule counts only
 * requests no other rule covers, so that the 300/min API groups are not capped by it. Daemon
 * callbacks (/api/remote) are authenticated by node token and limited by their own rules (SFTP).
 */
export const RATE_LIMIT_RULES: RateLimitRule[] = [
  { name: 'auth', limit: 45, windowMs: 5 * MINUTE, applies: under('/api/auth') },
  { name: 'auth-library', limit: 100, windowMs: MINUTE, applies: under('/api/auth') },
  { name: 'sign-in', limit: 5, windowMs: 10 * MINUTE, applies: under('/api/auth/sign-in') },
  { name: 'sign-in-email', limit: 3, windowMs: 10_000, applies: exactly('/api/auth/sign-in/email') },
  { name: 'forget-password', limit: 5, windowMs: 15 * MINUTE, applies: exactly('/api/auth/forget-password') },
  { name: 'reset-password', limit: 8, windowMs: 15 * MINUTE, applies: exactly('/api/auth/reset-password') },
  { name: 'password-request', limit: 5, windowMs: 15 * MINUTE, applies: exactly('/api/auth/password/request') },
  { name: 'password-reset', limit: 8, windowMs: 15 * MINUTE, applies: exactly('/api/auth/password/reset') },
  { name: 'two-factor', limit: 8, windowMs: 5 * MINUTE, applies: under('/api/user/2fa') },
  { name: 'account-password', limit: 8, windowMs: 5 * MINUTE, applies: under('/api/account/password') },
  { name: 'account-email', limit: 8, windowMs: 5 * MINUTE, applies: exactly('/api/account/email') },
  { name: 'account-sessions', limit: 15, windowMs: 5 * MINUTE, applies: under('/api/account/sessions') },
  { name: 'account-api-keys', limit: 20, windowMs: 5 * MINUTE, applies: under('/api/account/api-keys') },
  { name: 'api-key-create', limit: 10, windowMs: MINUTE, applies: exactly('/api/account/api-keys', 'POST') },
  { name: 'admin', limit: 300, windowMs: MINUTE, applies: under('/api/admin') },
  { name: 'daemon', limit: 300, windowMs: MINUTE, applies: under('/api/daemon') },
  { name: 'servers', limit: 300, windowMs: MINUTE, applies: under('/api/servers') },
  { name: 'client', limit: 300, windowMs: MINUTE, applies: under('/api/client') },
];

export const GLOBAL_RULE: RateLimitRule = { name: 'global', limit: 150, windowMs: 5 * MINUTE, applies: () => true };

/** Routes no limit applies to: the daemon's callbacks. */
export const isUnlimited = (path: string): boolean => under('/api/remote')('', path);

export const rulesFor = (method: string, path: string): RateLimitRule[] => {
  if (isUnlimited(path)) {
    return [];
  }
  const matched = RATE_LIMIT_RULES.filter((r) => r.applies(method, path));
  return matched.length > 0 ? matched : [GLOBAL_RULE];
};
