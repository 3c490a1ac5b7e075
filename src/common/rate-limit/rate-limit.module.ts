import { Global, Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import { Clock } from 'src/common/clock';
import { MemoryRateLimitStorage } from 'src/common/rate-limit/memory-rate-limit.storage';
import { throttlersOf } from 'src/common/rate-limit/rate-limit.rules';
import { RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';
import { RateLimitTrackers } from 'src/common/rate-limit/rate-limit-trackers';
import { RedisRateLimitStorage } from 'src/common/rate-limit/redis-rate-limit.storage';
import { SharedRedis } from 'src/common/redis/shared-redis';
import { AppConfigService } from 'src/config/app-config.service';

/**
 * The rate-limit throttlers and the storage every limit shares: Redis when REDIS_URL is set (all
 * panel processes share it), memory otherwise. RateLimitGuard (AuthModule) applies them.
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfigService, Clock, SharedRedis],
      useFactory: async (config: AppConfigService, clock: Clock, redis: SharedRedis) => ({
        throttlers: throttlersOf(),
        storage: config.rateLimit.redisUrl ? await RedisRateLimitStorage.connect(redis, clock) : new MemoryRateLimitStorage(clock),
      }),
    }),
  ],
  providers: [{ provide: RateLimitStorage, useExisting: ThrottlerStorage }, RateLimitTrackers],
  exports: [RateLimitStorage, RateLimitTrackers],
})
export class RateLimitModule {}
