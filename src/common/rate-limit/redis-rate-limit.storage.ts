import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import { Clock } from 'src/common/clock';
import { RateLimitRecord, RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';
import type { SharedRedis } from 'src/common/redis/shared-redis';

const PREFIX = 'hatchery:rl:';

/**
 * Counters in Redis, shared by every panel process, through
 * @nest-lab/throttler-storage-redis: one Lua script counts a hit and reads its window atomically,
 * and Redis drops ended windows itself. Only that library's counting is used; whether a request is
 * refused is decided from the count (RateLimitGuard), so its block keys change nothing. On SharedRedis's
 * command connection (which logs its errors and closes after the HTTP server, so requests answered
 * while the panel closes still count).
 */
export class RedisRateLimitStorage extends RateLimitStorage {
  private constructor(
    private readonly redis: Redis,
    private readonly counter: ThrottlerStorageRedisService,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** ioredis is loaded only by panels that use Redis (it is ~10 MiB of an idle panel's memory otherwise). */
  static async connect(shared: SharedRedis, clock: Clock): Promise<RedisRateLimitStorage> {
    const [redis, { ThrottlerStorageRedisService: Counter }] = await Promise.all([shared.client(), import('@nest-lab/throttler-storage-redis')]);
    return new RedisRateLimitStorage(redis, new Counter(redis), clock);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<RateLimitRecord> {
    const record = await this.counter.increment(PREFIX + key, ttl, limit, blockDuration, throttlerName);
    // The library reports whole seconds left; the window ends at most a second earlier than this.
    return { ...record, resetAt: this.clock.now().getTime() + record.timeToExpire * 1000 };
  }

  async peek(key: string, throttlerName: string): Promise<{ totalHits: number; resetAt: number } | null> {
    // The library's key for a counter's hits (its `increment` writes it).
    const hits = `{${PREFIX}${key}:${throttlerName}}:hits`;
    const [[, count], [, ttl]] = (await this.redis.multi().get(hits).pttl(hits).exec()) as [[Error | null, string | null], [Error | null, number]];
    if (count === null || ttl < 0) {
      return null;
    }
    return { totalHits: Number(count), resetAt: this.clock.now().getTime() + ttl };
  }

  override async ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.redis.ping().then((pong) => pong === 'PONG', () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
