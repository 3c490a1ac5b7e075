import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock } from 'src/common/clock';
import { MemoryRateLimitStorage } from 'src/common/rate-limit/memory-rate-limit.storage';
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
 *
 * While Redis is down or hangs (SharedRedis.ready), the counters are this process's own, in memory, as
 * without REDIS_URL: every limit still holds, per process, and no request fails for want of Redis.
 * Counting goes back to Redis once it answers; the windows counted in memory meanwhile are forgotten.
 */
export class RedisRateLimitStorage extends RateLimitStorage {
  private readonly logger = new Logger('RateLimits');
  /** The counters while Redis does not answer (made the first time it does not: they sweep hourly). */
  private memoryCounters?: MemoryRateLimitStorage;
  private inMemory = false;

  private constructor(
    private readonly shared: SharedRedis,
    private readonly counter: ThrottlerStorageRedisService,
    private readonly clock: Clock,
  ) {
    super();
  }

  private get memory(): MemoryRateLimitStorage {
    this.memoryCounters ??= new MemoryRateLimitStorage(this.clock);
    return this.memoryCounters;
  }

  /** ioredis is loaded only by panels that use Redis (it is ~10 MiB of an idle panel's memory otherwise). */
  static async connect(shared: SharedRedis, clock: Clock): Promise<RedisRateLimitStorage> {
    const [redis, { ThrottlerStorageRedisService: Counter }] = await Promise.all([shared.client(), import('@nest-lab/throttler-storage-redis')]);
    return new RedisRateLimitStorage(shared, new Counter(redis), clock);
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<RateLimitRecord> {
    return this.counted(
      async () => {
        const record = await this.counter.increment(PREFIX + key, ttl, limit, blockDuration, throttlerName);
        // The library reports whole seconds left; the window ends at most a second earlier than this.
        return { ...record, resetAt: this.clock.now().getTime() + record.timeToExpire * 1000 };
      },
      () => this.memory.increment(key, ttl, limit, blockDuration, throttlerName),
    );
  }

  peek(key: string, throttlerName: string): Promise<{ totalHits: number; resetAt: number } | null> {
    return this.counted(
      async (redis) => {
        // The library's key for a counter's hits (its `increment` writes it).
        const hits = `{${PREFIX}${key}:${throttlerName}}:hits`;
        const [[, count], [, ttl]] = (await redis.multi().get(hits).pttl(hits).exec()) as [[Error | null, string | null], [Error | null, number]];
        if (count === null || ttl < 0) {
          return null;
        }
        return { totalHits: Number(count), resetAt: this.clock.now().getTime() + ttl };
      },
      () => this.memory.peek(key, throttlerName),
    );
  }

  override async ping(timeoutMs: number): Promise<boolean> {
    const redis = await this.shared.client();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([redis.ping().then((pong) => pong === 'PONG', () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `inRedis` while Redis is there, else (or when it fails) `inThisProcess`; logs each switch once. */
  private async counted<T>(inRedis: (redis: Redis) => Promise<T>, inThisProcess: () => Promise<T>): Promise<T> {
    const redis = await this.shared.ready();
    if (redis) {
      try {
        const answer = await inRedis(redis);
        if (this.inMemory) {
          this.inMemory = false;
          this.logger.log('Redis answers again: rate limits are counted there, for every process');
        }
        return answer;
      } catch (e) {
        this.shared.failed(e);
      }
    }
    if (!this.inMemory) {
      this.inMemory = true;
      this.logger.warn("Redis does not answer: rate limits are counted in this process's memory until it does");
    }
    return inThisProcess();
  }
}
