/** A fixed-window counter: how many hits a key has had in its current window, and when the window ends. */
export interface RateLimitCount {
  count: number;
  resetAt: Date;
}

/**
 * Where rate-limit counters live. The memory store serves one process; a shared store (Redis,
 * issue #9) makes the limits hold across several panel processes.
 */
export abstract class RateLimitStore {
  /** Counts one hit on `key`; the first hit opens a window of `windowMs`. */
  abstract increment(key: string, windowMs: number): Promise<RateLimitCount>;

  /** The key's count in its open window, or null when it has none. */
  abstract get(key: string): Promise<RateLimitCount | null>;

  abstract reset(key: string): Promise<void>;
}
