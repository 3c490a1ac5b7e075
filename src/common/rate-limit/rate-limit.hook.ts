import { Injectable } from '@nestjs/common';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';
import { headerOf, HttpReply, HttpRequest, pathOf } from 'src/common/http/http';
import { RateLimitRule, rulesFor } from 'src/common/rate-limit/rate-limit.rules';
import { RateLimitCount, RateLimitStore } from 'src/common/rate-limit/rate-limit.store';
import { AppConfigService } from 'src/config/app-config.service';
import { AuthService } from 'src/modules/auth/auth.service';

export const RATE_LIMITED: ErrorDef = {
  code: 'RATE_LIMITED',
  category: ErrorCategory.RATE_LIMITED,
  message: 'Rate limit exceeded, try again later',
};

/**
 * interface.md §8 and addendum §4, as an `onRequest` hook (app.setup.ts) so that it runs before any
 * guard and for every path, routed or not. A caller with working credentials is counted by user (or
 * API key); anyone else, including a caller whose credentials fail, by client IP (a proxy's
 * `X-Forwarded-For` is believed only from TRUSTED_PROXIES, through Fastify's trustProxy). Every rule
 * the path falls under counts the request; the response carries the headers of the rule closest to
 * its limit.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly auth: AuthService,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
  ) {}

  /** Counts the request; throws RATE_LIMITED (429) when a rule is over its limit. */
  async check(req: HttpRequest, res: HttpReply): Promise<void> {
    if (!this.config.rateLimit.enabled) {
      return;
    }
    const rules = rulesFor(req.method, pathOf(req));
    if (rules.length === 0) {
      return;
    }
    const hasCredentials = headerOf(req, 'authorization') !== undefined || headerOf(req, 'x-api-key') !== undefined || headerOf(req, 'cookie') !== undefined;
    const auth = hasCredentials ? await this.auth.authenticateOnce(req, res).catch(() => null) : null;
    const tracker = trackerOf(auth, req);
    const counts = await Promise.all(rules.map(async (rule) => ({ rule, count: await this.store.increment(`${rule.name}:${tracker}`, rule.windowMs) })));
    const tightest = counts.reduce((a, b) => (remaining(b) < remaining(a) || (remaining(b) === remaining(a) && b.count.resetAt > a.count.resetAt) ? b : a));
    const resetSeconds = Math.ceil(tightest.count.resetAt.getTime() / 1000);
    res.header('X-RateLimit-Limit', String(tightest.rule.limit));
    res.header('X-RateLimit-Remaining', String(Math.max(0, remaining(tightest))));
    res.header('X-RateLimit-Reset', String(resetSeconds));
    const over = counts.filter((c) => c.count.count > c.rule.limit);
    if (over.length > 0) {
      const until = Math.max(...over.map((c) => c.count.resetAt.getTime()));
      res.header('Retry-After', String(Math.max(1, Math.ceil((until - this.clock.now().getTime()) / 1000))));
      throw new AppException(RATE_LIMITED);
    }
  }
}

const remaining = ({ rule, count }: { rule: RateLimitRule; count: RateLimitCount }): number => rule.limit - count.count;

const trackerOf = (auth: AuthContext | null, req: HttpRequest): string => {
  if (!auth) {
    return `ip:${req.ip}`;
  }
  return auth.method === 'api-key' ? `key:${auth.apiKey.identifier}` : `user:${auth.user.id}`;
};
