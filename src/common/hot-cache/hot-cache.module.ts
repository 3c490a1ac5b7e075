import { Global, Module } from '@nestjs/common';
import { ChangeSubscriber } from 'src/common/hot-cache/change-subscriber';
import { HotCaches } from 'src/common/hot-cache/hot-caches';

/** The caches and their in-process invalidation; the CLI has them too (its writes go through TypeORM). */
@Global()
@Module({
  providers: [HotCaches, ChangeSubscriber],
  exports: [HotCaches],
})
export class HotCacheModule {}
