import { Global, Module } from '@nestjs/common';
import { MemoryRateLimitStore } from 'src/common/rate-limit/memory-rate-limit.store';
import { RateLimitStore } from 'src/common/rate-limit/rate-limit.store';

/** The rate-limit store every limiter shares: in memory for now; Redis when REDIS_URL is set (issue #9). */
@Global()
@Module({
  providers: [{ provide: RateLimitStore, useClass: MemoryRateLimitStore }],
  exports: [RateLimitStore],
})
export class RateLimitModule {}
