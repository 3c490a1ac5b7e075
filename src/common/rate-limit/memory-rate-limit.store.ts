import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { RateLimitCount, RateLimitStore } from 'src/common/rate-limit/rate-limit.store';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/** Counters in this process's memory; expired windows are dropped hourly (interface.md §8). */
@Injectable()
export class MemoryRateLimitStore extends RateLimitStore implements OnModuleDestroy {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    super();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  }

  increment(key: string, windowMs: number): Promise<RateLimitCount> {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return Promise.resolve({ count: window.count, resetAt: new Date(window.resetAt) });
  }

  get(key: string): Promise<RateLimitCount | null> {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= this.clock.now().getTime()) {
      return Promise.resolve(null);
    }
    return Promise.resolve({ count: window.count, resetAt: new Date(window.resetAt) });
  }

  reset(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
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
