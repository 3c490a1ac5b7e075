/** Injectable time source so tests can move time without sleeping. */
export abstract class Clock {
  abstract now(): Date;

  /**
   * Waits `ms` of this clock's time. Rejects with the signal's reason when `signal` aborts first,
   * so a shutdown does not wait out a long delay.
   */
  abstract sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The reason an aborted signal carries, as an Error. */
export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(typeof signal.reason === 'string' ? signal.reason : 'aborted');

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal ? abortReason(signal) : new Error('aborted'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
