import type { INestApplication } from '@nestjs/common';
import type { Client, Notification } from 'pg';
import { ChangeFeed, CHANGES_CHANNEL } from 'src/common/hot-cache/change-feed';

let barriers = 0;

/**
 * Resolves once `app`'s change feed has applied every change committed before the call; at once
 * when it is not listening (the embedded database, or caches off). On PostgreSQL an app hears its
 * own writes back through the feed a moment after they commit: a test that fills a cache right
 * after a write, and expects the next request to be served from it, waits for this first, or the
 * late notification rightly drops the entry it just filled.
 *
 * Notifications reach a listener in commit order, and the feed's own handler was registered first:
 * when this barrier arrives, everything before it has been applied.
 */
export const changesHeard = async (app: INestApplication): Promise<void> => {
  const feed = app.get(ChangeFeed);
  const client = (feed as unknown as { client: Client | null }).client;
  if (feed.state !== 'listening' || !client) {
    return;
  }
  barriers += 1;
  const payload = `test-barrier:${process.pid}.${barriers}`;
  const heard = new Promise<void>((resolve) => {
    const onNotification = (n: Notification) => {
      if (n.payload === payload) {
        client.off('notification', onNotification);
        resolve();
      }
    };
    client.on('notification', onNotification);
  });
  await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
  await heard;
};
