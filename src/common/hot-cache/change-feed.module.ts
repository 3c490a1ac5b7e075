import { Module } from '@nestjs/common';
import { CHANGE_FEED_OPTIONS, ChangeFeed, DEFAULT_CHANGE_FEED_OPTIONS } from 'src/common/hot-cache/change-feed';

/** The panel's listener for other processes' changes (not the CLI's: a one-off command needs none). */
@Module({
  // The options are a provider so that a test can slow the reconnection down.
  providers: [ChangeFeed, { provide: CHANGE_FEED_OPTIONS, useValue: DEFAULT_CHANGE_FEED_OPTIONS }],
  exports: [ChangeFeed],
})
export class ChangeFeedModule {}
