import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { RateLimitRecord, RateLimitStorage } from 'src/common/rate-limit/rate-limit.storage';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Counters in this process's memory, timed by the injectable Clock (tests move it); expired windows
 * are dropped hourly. A window opens on a counter's first hit and ends `ttl` later;
 * every hit in it counts, refused ones included, so hammering a limit does not shorten it.
 */
@Injectable()
export class MemoryRateLimitStorage extends RateLimitStorage implements OnModuleDestroy {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    super();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  }

  increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<RateLimitRecord> {
    const now = this.clock.now().getTime();
    const k = `${throttlerName}:${key}`;
    let window = this.windows.get(k);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + ttl };
      this.windows.set(k, window);
    }
    window.count += 1;
    const timeToExpire = Math.ceil((window.resetAt - now) / 1000);
    const isBlocked = window.count > limit;
    return Promise.resolve({ totalHits: window.count, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0, resetAt: window.resetAt });
  }

  peek(key: string, throttlerName: string): Promise<{ totalHits: number; resetAt: number } | null> {
    const window = this.windows.get(`${throttlerName}:${key}`);
    if (!window || window.resetAt <= this.clock.now().getTime()) {
      return Promise.resolve(null);
    }
    return Promise.resolve({ totalHits: window.count, resetAt: window.resetAt });
  }

  /** Drops every window that has ended. */
  sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) {
        this.windows.delete(key);
      }
    }
  }

  get size(): number {
    return this.windows.size;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
