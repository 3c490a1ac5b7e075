import { Global, Module } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { MemoryRateLimitStore } from 'src/common/rate-limit/memory-rate-limit.store';
import { RateLimitStore } from 'src/common/rate-limit/rate-limit.store';
import { RedisRateLimitStore } from 'src/common/rate-limit/redis-rate-limit.store';
import { AppConfigService } from 'src/config/app-config.service';

/** The rate-limit store every limiter shares: Redis when REDIS_URL is set (all panel processes share it), memory otherwise. */
@Global()
@Module({
  providers: [
    {
      provide: RateLimitStore,
      inject: [AppConfigService, Clock],
      useFactory: async (config: AppConfigService, clock: Clock): Promise<RateLimitStore> =>
        config.rateLimit.redisUrl ? RedisRateLimitStore.connect(config.rateLimit.redisUrl) : new MemoryRateLimitStore(clock),
    },
  ],
  exports: [RateLimitStore],
})
export class RateLimitModule {}
