import type { ExecutionContext } from '@nestjs/common';
import type { ThrottlerOptions } from '@nestjs/throttler';
import type { HttpRequest } from 'src/common/http/http';

/**
 * One rate limit: requests to routes matching `applies` share `limit` per `windowMs`.
 * `applies` sees the route the router matched (its template, e.g. `/api/client/servers/:server`),
 * never the raw URL, so every spelling the router accepts for a route meets the same rules.
 */
interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  applies: (method: string, route: string) => boolean;
  /**
   * What the rule counts by. `client`: the caller's user or API key when its credentials work, else
   * its address; on sign-in routes always the address. `user`: the user whose credentials work,
   * whichever session or key (Hatchery's or a Pterodactyl one) it used, else the address: one
   * account's password guesses share one count however many keys it holds. `account`: the account a
   * sign-in names.
   */
  by: 'client' | 'user' | 'account';
}

const MINUTE = 60_000;
const under = (prefix: string) => (_method: string, route: string) => route === prefix || route.startsWith(`${prefix}/`);
const exactly = (route: string, method?: string) => (m: string, r: string) => r === route && (method === undefined || m === method);
const anyOf =
  (...tests: ((method: string, route: string) => boolean)[]) =>
  (method: string, route: string) =>
    tests.some((test) => test(method, route));

/** The Pterodactyl client API's account routes (docs/pterodactyl-compat.md#client-api). */
const PTERODACTYL_ACCOUNT = '/pterodactyl/api/client/account';

export const isSignInRoute = under('/api/auth/sign-in');

/**
 * The rate limits (docs/api.md#rate-limits). Every matching rule counts a request; the global rule counts only
 * requests no other rule covers, so that the 300/min API groups are not capped by it. Daemon
 * callbacks (/api/remote) are authenticated by node token and limited by their own rules (SFTP).
 * Sign-in guesses are counted by client address and again by the account they target, so that
 * neither fresh credentials nor fresh addresses buy an attacker more guesses.
 */
export const RATE_LIMIT_RULES: RateLimitRule[] = [
  { name: 'auth', limit: 45, windowMs: 5 * MINUTE, applies: under('/api/auth'), by: 'client' },
  { name: 'auth-library', limit: 100, windowMs: MINUTE, applies: under('/api/auth'), by: 'client' },
  { name: 'sign-in', limit: 5, windowMs: 10 * MINUTE, applies: isSignInRoute, by: 'client' },
  { name: 'sign-in-account', limit: 5, windowMs: 10 * MINUTE, applies: isSignInRoute, by: 'account' },
  { name: 'sign-in-email', limit: 3, windowMs: 10_000, applies: exactly('/api/auth/sign-in/email'), by: 'client' },
  { name: 'sign-in-email-account', limit: 3, windowMs: 10_000, applies: exactly('/api/auth/sign-in/email'), by: 'account' },
  // Each challenge takes 5 codes and each password sign-in makes one; this caps an address's guesses across challenges.
  { name: 'two-factor-step', limit: 10, windowMs: 5 * MINUTE, applies: exactly('/api/auth/two-factor'), by: 'client' },
  // Each options request stores a challenge (and the sign-in page asks for one on load, for autofill).
  { name: 'passkey-sign-in', limit: 30, windowMs: 5 * MINUTE, applies: anyOf(under('/api/auth/passkey'), exactly('/api/auth/two-factor/passkey-options')), by: 'client' },
  { name: 'forget-password', limit: 5, windowMs: 15 * MINUTE, applies: exactly('/api/auth/forget-password'), by: 'client' },
  { name: 'reset-password', limit: 8, windowMs: 15 * MINUTE, applies: exactly('/api/auth/reset-password'), by: 'client' },
  { name: 'password-request', limit: 5, windowMs: 15 * MINUTE, applies: exactly('/api/auth/password/request'), by: 'client' },
  { name: 'password-reset', limit: 8, windowMs: 15 * MINUTE, applies: exactly('/api/auth/password/reset'), by: 'client' },
  // Each takes the account's password: Hatchery's routes and the Pterodactyl layer's share one count
  // per account, so neither a key (nor many) guesses faster than a session.
  { name: 'two-factor', limit: 8, windowMs: 5 * MINUTE, applies: anyOf(under('/api/user/2fa'), under(`${PTERODACTYL_ACCOUNT}/two-factor`)), by: 'user' },
  { name: 'account-password', limit: 8, windowMs: 5 * MINUTE, applies: anyOf(under('/api/account/password'), exactly(`${PTERODACTYL_ACCOUNT}/password`)), by: 'user' },
  { name: 'account-email', limit: 8, windowMs: 5 * MINUTE, applies: anyOf(exactly('/api/account/email'), exactly(`${PTERODACTYL_ACCOUNT}/email`)), by: 'user' },
  { name: 'account-sessions', limit: 15, windowMs: 5 * MINUTE, applies: under('/api/account/sessions'), by: 'client' },
  { name: 'account-passkeys', limit: 20, windowMs: 5 * MINUTE, applies: under('/api/account/passkeys'), by: 'client' },
  { name: 'account-api-keys', limit: 20, windowMs: 5 * MINUTE, applies: under('/api/account/api-keys'), by: 'client' },
  { name: 'api-key-create', limit: 10, windowMs: MINUTE, applies: exactly('/api/account/api-keys', 'POST'), by: 'client' },
  // Every page load of the web app reads it before sign-in: a bucket of its own, so that it neither
  // spends the global budget nor is starved by it; it only reads the configuration.
  { name: 'settings', limit: 60, windowMs: MINUTE, applies: exactly('/api/settings'), by: 'client' },
  { name: 'admin', limit: 300, windowMs: MINUTE, applies: under('/api/admin'), by: 'client' },
  { name: 'daemon', limit: 300, windowMs: MINUTE, applies: under('/api/daemon'), by: 'client' },
  { name: 'servers', limit: 300, windowMs: MINUTE, applies: under('/api/servers'), by: 'client' },
  { name: 'client', limit: 300, windowMs: MINUTE, applies: under('/api/client'), by: 'client' },
];

const GLOBAL_RULE: RateLimitRule = { name: 'global', limit: 150, windowMs: 5 * MINUTE, applies: () => true, by: 'client' };

/**
 * Routes no rule applies to: the daemon's callbacks, and the health check. A load balancer checks every
 * panel process from one address, every second or two, and with Redis all of them spend one budget:
 * counted, the checks ran out the global limit within minutes and the balancer took the whole fleet out.
 */
const isUnlimited = (route: string): boolean => under('/api/remote')('', route) || exactly('/api/health')('GET', route);

/**
 * Whether requests to `route` reach no guard and are counted outside RateLimitGuard (app.setup.ts):
 * no route matched, or the API docs, which are Fastify routes of their own rather than a controller.
 */
export const isUnguarded = (route: string | undefined): boolean =>
  route === undefined || route === '/api/docs' || route.startsWith('/api/docs/') || route.startsWith('/api/docs.');

/** The rules a request to `route` (the matched template; undefined when no route matched) falls under. */
const rulesFor = (method: string, route: string | undefined): RateLimitRule[] => {
  if (route === undefined) {
    return [GLOBAL_RULE];
  }
  if (isUnlimited(route)) {
    return [];
  }
  const matched = RATE_LIMIT_RULES.filter((r) => r.applies(method, route));
  return matched.length > 0 ? matched : [GLOBAL_RULE];
};

/** The route the router matched for the request (its template), or undefined when none did. */
export const routeOf = (req: HttpRequest): string | undefined => req.routeOptions?.url;

/**
 * The account a sign-in names, as the sign-in looks it up (trimmed, lower case): the e-mail address
 * on the e-mail route, the username on the others (only the field the route reads is a guess).
 */
export const signInTargetOf = (req: HttpRequest): { field: 'email' | 'username'; value: string } | undefined => {
  const field = routeOf(req) === '/api/auth/sign-in/email' ? 'email' : 'username';
  const body = req.body as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' ? body[field] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? { field, value: value.trim().toLowerCase() } : undefined;
};

/** rulesFor, once per method and route template (a bounded set) rather than once per throttler and request. */
const routeRules = new Map<string, RateLimitRule[]>();
export const rulesOf = (req: HttpRequest): RateLimitRule[] => {
  const route = routeOf(req);
  const key = `${req.method} ${route}`;
  let rules = routeRules.get(key);
  if (!rules) {
    rules = rulesFor(req.method, route);
    if (route !== undefined) {
      routeRules.set(key, rules);
    }
  }
  return rules;
};

const applies = (rule: RateLimitRule, req: HttpRequest): boolean =>
  rulesOf(req).includes(rule) && (rule.by !== 'account' || signInTargetOf(req) !== undefined);

/** The rate-limit rules as throttler's named throttlers; each decides from the matched route whether it counts. */
export const throttlersOf = (): ThrottlerOptions[] =>
  [...RATE_LIMIT_RULES, GLOBAL_RULE].map((rule) => ({
    name: rule.name,
    limit: rule.limit,
    ttl: rule.windowMs,
    blockDuration: rule.windowMs,
    skipIf: (context: ExecutionContext) => !applies(rule, context.switchToHttp().getRequest<HttpRequest>()),
  }));
