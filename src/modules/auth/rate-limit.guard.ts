import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerGuard, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { AuthContext } from 'src/common/auth/auth-context';
import { Clock } from 'src/common/clock';
import { AppException } from 'src/common/errors/app.exception';
import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';
import { headerOf, HttpReply, HttpRequest } from 'src/common/http/http';
import { isSignInRoute, RATE_LIMIT_RULES, routeOf, rulesOf, signInTargetOf } from 'src/common/rate-limit/rate-limit.rules';
import { decidingHit, RateLimitHit, rateLimitKey, setRateLimitHeaders } from 'src/common/rate-limit/rate-limit.headers';
import { RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';
import { RateLimitTrackers, TrackedCredential } from 'src/common/rate-limit/rate-limit-trackers';
import { AppConfigService } from 'src/config/app-config.service';
import { AuthService } from 'src/modules/auth/auth.service';
import { UsersService } from 'src/modules/users/users.service';

const RATE_LIMITED: ErrorDef = {
  code: 'RATE_LIMITED',
  category: ErrorCategory.RATE_LIMITED,
  message: 'Rate limit exceeded, try again later',
};

/** The longest e-mail address or username an account can have (the sign-in DTOs' bound). */
const MAX_ACCOUNT_NAME = 191;

const ACCOUNT_RULES = new Set(RATE_LIMIT_RULES.filter((r) => r.by === 'account').map((r) => r.name));
const USER_RULES = new Set(RATE_LIMIT_RULES.filter((r) => r.by === 'user').map((r) => r.name));

const HITS = Symbol('rateLimitHits');
const ACCOUNT = Symbol('rateLimitAccount');
type CountedRequest = HttpRequest & { [HITS]?: RateLimitHit[]; [ACCOUNT]?: Promise<string> };

/**
 * The rate limits (docs/api.md#rate-limits) on @nestjs/throttler, as the first global guard (AuthModule
 * registers it before AuthGuard, so requests whose credentials fail are counted too). It runs after
 * routing and decides from the matched route, so every spelling the router accepts for a route meets
 * that route's rules. Every rule a route falls under counts the request, refused or not; the request
 * is refused when any rule is over its limit. Requests no guard runs for (no route matched, the API
 * docs, or a body Fastify could not read) are counted by `countUnguarded` (app.setup.ts).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    private readonly storage: RateLimitStorage,
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly config: AppConfigService,
    private readonly clock: Clock,
    private readonly trackers: RateLimitTrackers,
  ) {
    super(options, storageService, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<CountedRequest>();
    req[HITS] = [];
    await super.canActivate(context);
    this.enforce(req[HITS], context.switchToHttp().getResponse<HttpReply>());
    return true;
  }

  /**
   * Counts a request this guard did not see, under the rules of its route (the global rule when no
   * route matched): a 404, the API docs, or a request Fastify refused before any guard ran (a body
   * it could not parse). Throws RATE_LIMITED when a rule is over its limit. Rules by account need the parsed body
   * and do not count these.
   */
  async countUnguarded(req: HttpRequest, res: HttpReply): Promise<void> {
    const counted = req as CountedRequest;
    if (!this.config.rateLimit.enabled || counted[HITS] !== undefined) {
      return;
    }
    counted[HITS] = [];
    const rules = rulesOf(req).filter((rule) => rule.by !== 'account');
    if (rules.length === 0) {
      return;
    }
    for (const rule of rules) {
      const tracker = await this.clientOf(req, res, rule.by === 'user');
      const record = await this.storage.increment(rateLimitKey(rule.name, tracker), rule.windowMs, rule.limit, rule.windowMs, rule.name);
      counted[HITS].push({ limit: rule.limit, totalHits: record.totalHits, resetAt: record.resetAt });
    }
    this.enforce(counted[HITS], res);
  }

  protected override shouldSkip(): Promise<boolean> {
    return Promise.resolve(!this.config.rateLimit.enabled);
  }

  /** Counts the request under one rule; whether it is refused is decided once every rule has counted it. */
  protected override async handleRequest({ context, limit, ttl, throttler, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const req = context.switchToHttp().getRequest<CountedRequest>();
    const name = throttler.name ?? '';
    const res = context.switchToHttp().getResponse<HttpReply>();
    const tracker = ACCOUNT_RULES.has(name) ? await this.accountOf(req) : USER_RULES.has(name) ? await this.clientOf(req, res, true) : await getTracker(req, context);
    const key = generateKey(context, tracker, name);
    const record = await this.storage.increment(key, ttl, limit, ttl, name);
    req[HITS]?.push({ limit, totalHits: record.totalHits, resetAt: record.resetAt });
    return true;
  }

  /**
   * By user or API key (Hatchery's, or one a registered tracker verifies, such as a Pterodactyl key)
   * when the attached credentials work, else by client address (a proxy's X-Forwarded-For is
   * believed only from TRUSTED_PROXIES, through Fastify's trustProxy). Sign-in
   * routes count by address only: credentials an attacker attaches must not buy fresh guesses.
   */
  protected override getTracker(req: Record<string, unknown>, context?: ExecutionContext): Promise<string> {
    return this.clientOf(req as unknown as HttpRequest, context!.switchToHttp().getResponse<HttpReply>());
  }

  /** The caller's credential (or, `byUser`, its user) when it works, else its address. */
  private async clientOf(req: HttpRequest, res: HttpReply, byUser = false): Promise<string> {
    const route = routeOf(req);
    const hasCredentials = headerOf(req, 'authorization') !== undefined || headerOf(req, 'x-api-key') !== undefined || headerOf(req, 'cookie') !== undefined;
    if (!hasCredentials || (route !== undefined && isSignInRoute('', route))) {
      return `ip:${req.ip}`;
    }
    const credential = (await this.trackers.credentialOf(req)) ?? credentialOf(await this.auth.authenticateOnce(req, res).catch(() => null));
    if (!credential) {
      return `ip:${req.ip}`;
    }
    return byUser ? `user:${credential.userId}` : credential.tracker;
  }

  /**
   * The account a sign-in targets: its id when it exists, so that guesses by e-mail and by username
   * share one count; else the name as given (trimmed, lower case), as the sign-in looks it up.
   */
  private accountOf(req: CountedRequest): Promise<string> {
    req[ACCOUNT] ??= (async () => {
      const target = signInTargetOf(req)!;
      const named = `${target.field}:${target.value}`;
      // The body is not validated yet: a name no account can have is not looked up.
      if (target.value.length > MAX_ACCOUNT_NAME || target.value.includes('\0')) {
        return named;
      }
      const user = await (target.field === 'email' ? this.users.findByEmail(target.value) : this.users.findByUsername(target.value)).catch(() => null);
      return user ? `account:${user.uuid}` : named;
    })();
    return req[ACCOUNT];
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return rateLimitKey(name, tracker);
  }

  /** Answers with the deciding rule's headers; refuses the request when any rule is over its limit. */
  private enforce(hits: RateLimitHit[] | undefined, res: HttpReply): void {
    if (!hits || hits.length === 0) {
      return;
    }
    const hit = decidingHit(hits);
    const refused = hit.totalHits > hit.limit;
    setRateLimitHeaders(res, hit, this.clock.now().getTime(), refused);
    if (refused) {
      throw new AppException(RATE_LIMITED);
    }
  }
}

/** A Hatchery credential that worked (AuthService's attempt, shared with AuthGuard, which answers for one that failed). */
const credentialOf = (auth: AuthContext | null): TrackedCredential | null =>
  auth && { tracker: auth.method === 'api-key' ? `key:${auth.apiKey.identifier}` : `user:${auth.user.id}`, userId: auth.user.id };
