import { Clock } from 'src/common/clock';

/** A clock the test moves by hand. */
export class FakeClock extends Clock {
  private current: number;

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
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
