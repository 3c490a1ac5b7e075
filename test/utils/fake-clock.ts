import { abortReason, Clock } from 'src/common/clock';

/** A clock the test moves by hand. */
export class FakeClock extends Clock {
  private current: number;
  /** Every wait asked of `sleep`, in ms, in the order asked. */
  readonly sleeps: number[] = [];

  constructor(start = Date.now()) {
    super();
    this.current = start;
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  /** Records the wait, moves the clock past it and resolves on the next turn of the event loop. */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) {
      throw abortReason(signal);
    }
    this.sleeps.push(ms);
    this.current += Math.max(0, ms);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
