import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimitCount, RateLimitStore } from 'src/common/rate-limit/rate-limit.store';

const PREFIX = 'hatchery:rl:';

/**
 * Counters in Redis, shared by every panel process (addendum §4, §7). A window is a key with an
 * expiry: INCR counts, PEXPIRE NX opens the window on the first hit, PTTL says when it ends; the
 * three run in one MULTI so concurrent processes see one count. Redis drops ended windows itself.
 */
@Injectable()
export class RedisRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly logger = new Logger(RedisRateLimitStore.name);

  constructor(private readonly redis: Redis) {
    super();
    redis.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
  }

  /** ioredis is loaded only by panels that use Redis (it is ~10 MiB of an idle panel's memory otherwise). */
  static async connect(url: string): Promise<RedisRateLimitStore> {
    const { default: RedisClient } = await import('ioredis');
    return new RedisRateLimitStore(new RedisClient(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }));
  }

  async increment(key: string, windowMs: number): Promise<RateLimitCount> {
    const k = PREFIX + key;
    const results = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
    if (!results) {
      throw new Error('Redis transaction was aborted');
    }
    for (const [error] of results) {
      if (error) {
        throw error;
      }
    }
    const count = Number(results[0][1]);
    const ttl = Number(results[2][1]);
    return { count, resetAt: new Date(Date.now() + Math.max(ttl, 0)) };
  }

  async get(key: string): Promise<RateLimitCount | null> {
    const k = PREFIX + key;
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [[Error | null, string | null], [Error | null, number]];
    if (count === null || ttl < 0) {
      return null;
    }
    return { count: Number(count), resetAt: new Date(Date.now() + ttl) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(PREFIX + key);
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
