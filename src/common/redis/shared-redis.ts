import { Global, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfigService } from 'src/config/app-config.service';
import { errorMessage } from 'src/common/errors/error-message';

/** A command Redis has not answered in this long fails (a Redis that hangs must not hang requests). */
const COMMAND_TIMEOUT_MS = 1_000;
/** After a command failed, Redis is left alone this long: each process does without it meanwhile. */
const PAUSE_MS = 5_000;

/**
 * The panel's Redis (REDIS_URL) for what its processes share: the rate limits' counters, node listings
 * of the live-status pollers and the servers' live state. One connection for commands and one for
 * subscriptions (a subscribed connection takes no other command), opened when first needed; ioredis is
 * loaded only by panels that use Redis. Without REDIS_URL (one process) `enabled` is false and nothing
 * connects.
 *
 * Redis going away must not take the panel with it: its users ask `ready()`, which answers null while
 * the connection is down or for PAUSE_MS after a command failed (`failed`: refused, or unanswered for
 * COMMAND_TIMEOUT_MS, as a Redis that hangs leaves it), and then do as one process would alone.
 */
@Injectable()
export class SharedRedis implements OnApplicationShutdown {
  private readonly logger = new Logger(SharedRedis.name);
  private commands?: Promise<Redis>;
  private subscriber?: Promise<Redis>;
  private readonly handlers = new Map<string, (message: string) => void>();
  /** Until when (ms since the epoch) `ready()` answers null after a failed command. */
  private pausedUntil = 0;

  constructor(private readonly config: AppConfigService) {}

  get enabled(): boolean {
    return this.config.rateLimit.redisUrl !== undefined;
  }

  /** The command connection; rejects when REDIS_URL is unset. */
  client(): Promise<Redis> {
    this.commands ??= this.connect('hatchery-shared');
    return this.commands;
  }

  /**
   * The command connection when Redis is there to use: connected, and no command failed in the last
   * PAUSE_MS. Null otherwise (or without REDIS_URL): never waits for a reconnection.
   */
  async ready(): Promise<Redis | null> {
    if (!this.enabled || Date.now() < this.pausedUntil) {
      return null;
    }
    const redis = await this.client().catch(() => null);
    return redis?.status === 'ready' ? redis : null;
  }

  /** A command failed: Redis is left alone for PAUSE_MS (a reconnection ends the pause sooner). */
  failed(e: unknown): void {
    if (Date.now() >= this.pausedUntil) {
      this.logger.warn(`Redis: ${errorMessage(e)}; each process does without it for ${PAUSE_MS / 1000} s`);
    }
    this.pausedUntil = Date.now() + PAUSE_MS;
  }

  /** Calls `handler` with each message published on `channel` (one handler per channel; later calls replace it). */
  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    const known = this.handlers.has(channel);
    this.handlers.set(channel, handler);
    this.subscriber ??= this.connect('hatchery-subscriber').then((redis) => {
      redis.on('message', (from: string, message: string) => this.handlers.get(from)?.(message));
      return redis;
    });
    if (!known) {
      await (await this.subscriber).subscribe(channel);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const connections = await Promise.all([this.commands, this.subscriber].map((c) => Promise.resolve(c).catch(() => undefined)));
    this.commands = undefined;
    this.subscriber = undefined;
    for (const redis of connections) {
      redis?.disconnect();
    }
  }

  private async connect(connectionName: string): Promise<Redis> {
    const url = this.config.rateLimit.redisUrl;
    if (!url) {
      throw new Error('REDIS_URL is not set');
    }
    const { default: RedisClient } = await import('ioredis');
    const redis = new RedisClient(url, { maxRetriesPerRequest: 2, commandTimeout: COMMAND_TIMEOUT_MS, connectionName });
    redis.on('error', (e: Error) => this.logger.warn(`Redis: ${errorMessage(e)}`));
    redis.on('ready', () => (this.pausedUntil = 0));
    // Its first user waits for the connection (a second at most): callers read `status` to tell a Redis
    // that is down from one still connecting.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1_000);
      timer.unref();
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return redis;
  }
}

@Global()
@Module({ providers: [SharedRedis], exports: [SharedRedis] })
export class SharedRedisModule {}
