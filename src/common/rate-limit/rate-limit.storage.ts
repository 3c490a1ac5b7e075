import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';

/** A counter's state: throttler's record, plus when its window ends (ms since the epoch). */
export interface RateLimitRecord extends ThrottlerStorageRecord {
  resetAt: number;
}

/**
 * Where rate-limit counters live: throttler's storage (fixed windows that open on the first hit), in
 * this process's memory or in Redis shared by every panel process. `peek` reads a counter without
 * counting, for limits that count failures only (SFTP sign-in).
 */
export abstract class RateLimitStorage implements ThrottlerStorage {
  abstract increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<RateLimitRecord>;

  /** The counter's hits in its open window and when that window ends, or null when it has none. */
  abstract peek(key: string, throttlerName: string): Promise<{ totalHits: number; resetAt: number } | null>;

  /** Whether the shared store answers within `timeoutMs`; null when the counters are in this process's memory. */
  ping(_timeoutMs: number): Promise<boolean | null> {
    return Promise.resolve(null);
  }
}
