import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';

/**
 * Work a request starts but does not wait for (e-mails, the password-reset lookup), so its duration
 * never shows in the response. Failures are logged, never thrown; shutdown waits for what is running.
 */
@Injectable()
export class BackgroundTasks implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BackgroundTasks.name);
  private readonly running = new Set<Promise<void>>();

  run(name: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (err: unknown) => this.logger.error({ err }, `Background task failed: ${name}`),
      )
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /** Resolves once nothing is running, including tasks started by the tasks awaited. */
  async settled(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running]);
    }
  }

  // Before the database and the mail transport close (they close on application shutdown).
  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }
}
