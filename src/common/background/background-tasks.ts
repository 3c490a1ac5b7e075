import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { withinGrace } from 'src/common/shutdown/within-grace';

/** How long shutdown waits for running tasks (an e-mail to a slow SMTP server) before it goes on. */
const BACKGROUND_SHUTDOWN_GRACE_MS = 10_000;

/**
 * Work a request starts but does not wait for (e-mails, the password-reset lookup), so its duration
 * never shows in the response. Failures are logged, never thrown; shutdown waits for what is running.
 */
@Injectable()
export class BackgroundTasks implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BackgroundTasks.name);
  private readonly running = new Map<Promise<void>, string>();

  run(name: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (err: unknown) => this.logger.error({ err }, `Background task failed: ${name}`),
      )
      .finally(() => this.running.delete(promise));
    this.running.set(promise, name);
  }

  /** Resolves once nothing is running, including tasks started by the tasks awaited. */
  async settled(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running.keys()]);
    }
  }

  // Before the database and the mail transport close (they close on application shutdown); bounded,
  // so a task that hangs cannot hold the process up.
  async beforeApplicationShutdown(): Promise<void> {
    if (!(await withinGrace(this.settled(), BACKGROUND_SHUTDOWN_GRACE_MS))) {
      this.logger.warn({ tasks: [...this.running.values()] }, 'Shutting down with background tasks still running');
    }
  }
}
