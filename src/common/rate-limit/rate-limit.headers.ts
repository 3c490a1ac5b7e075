import { createHash } from 'node:crypto';
import type { HttpReply } from 'src/common/http/http';

/** One rule's count for a request. */
export interface RateLimitHit {
  limit: number;
  totalHits: number;
  /** When the rule's window ends, ms since the epoch. */
  resetAt: number;
}

/** A counter's key: the rule and whom it counts (hashed: no addresses or e-mail addresses in the store). */
export const rateLimitKey = (rule: string, tracker: string): string => `${rule}:${createHash('sha256').update(tracker).digest('base64url')}`;

/**
 * The hit a response's headers describe. When rules refuse the request, the one whose window ends
 * last (the request is refused until then); otherwise the one with the fewest requests left (the
 * later reset on a tie).
 */
export const decidingHit = (hits: RateLimitHit[]): RateLimitHit => {
  const over = hits.filter((h) => h.totalHits > h.limit);
  if (over.length > 0) {
    return over.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
  }
  const left = (h: RateLimitHit) => h.limit - h.totalHits;
  return hits.reduce((a, b) => (left(b) < left(a) || (left(b) === left(a) && b.resetAt > a.resetAt) ? b : a));
};

/**
 * The one set of rate-limit headers: X-RateLimit-Limit, -Remaining and -Reset (Unix
 * seconds) of one rule's count, and on a refusal Retry-After until that same rule's window ends.
 */
export const setRateLimitHeaders = (res: HttpReply, hit: RateLimitHit, now: number, refused: boolean): void => {
  void res.header('X-RateLimit-Limit', String(hit.limit));
  void res.header('X-RateLimit-Remaining', String(Math.max(0, hit.limit - hit.totalHits)));
  void res.header('X-RateLimit-Reset', String(Math.ceil(hit.resetAt / 1000)));
  if (refused) {
    void res.header('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt - now) / 1000))));
  }
};
