import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';
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
 * interface.md §8 and addendum §4, as middleware so that it runs before any guard and for every
 * path, routed or not. A caller with working credentials is counted by user (or API key); anyone
 * else, including a caller whose credentials fail, by client IP (a proxy's `X-Forwarded-For` is
 * believed only from TRUSTED_PROXIES, through Express' trust proxy). Every rule the path falls under
 * counts the request; the response carries the headers of the rule closest to its limit.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly store: RateLimitStore,
    private readonly auth: AuthService,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!this.config.rateLimit.enabled) {
      next();
      return;
    }
    const path = req.originalUrl.split('?')[0];
    const rules = rulesFor(req.method, path);
    if (rules.length === 0) {
      next();
      return;
    }
    const hasCredentials = req.get('authorization') !== undefined || req.get('x-api-key') !== undefined || req.get('cookie') !== undefined;
    const auth = hasCredentials ? await this.auth.authenticateOnce(req, res).catch(() => null) : null;
    const tracker = trackerOf(auth, req);
    const counts = await Promise.all(rules.map(async (rule) => ({ rule, count: await this.store.increment(`${rule.name}:${tracker}`, rule.windowMs) })));
    const tightest = counts.reduce((a, b) => (remaining(b) < remaining(a) || (remaining(b) === remaining(a) && b.count.resetAt > a.count.resetAt) ? b : a));
    const resetSeconds = Math.ceil(tightest.count.resetAt.getTime() / 1000);
    res.setHeader('X-RateLimit-Limit', String(tightest.rule.limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, remaining(tightest))));
    res.setHeader('X-RateLimit-Reset', String(resetSeconds));
    const over = counts.filter((c) => c.count.count > c.rule.limit);
    if (over.length > 0) {
      const until = Math.max(...over.map((c) => c.count.resetAt.getTime()));
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((until - this.clock.now().getTime()) / 1000))));
      throw new AppException(RATE_LIMITED);
    }
    next();
  }
}

const remaining = ({ rule, count }: { rule: RateLimitRule; count: RateLimitCount }): number => rule.limit - count.count;

const trackerOf = (auth: AuthContext | null, req: Request): string => {
  if (!auth) {
    return `ip:${req.ip ?? 'unknown'}`;
  }
  return auth.method === 'api-key' ? `key:${auth.apiKey.identifier}` : `user:${auth.user.id}`;
};
