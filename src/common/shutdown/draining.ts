import { Injectable, Logger, OnApplicationShutdown, type INestApplication } from '@nestjs/common';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * The panel's way out on SIGTERM or SIGINT: first it drains (GET /api/health answers 503 while every
 * other request is still served, for SHUTDOWN_DRAIN_SECONDS, so that a load balancer stops sending it
 * requests), then it closes as Nest does (each step bounded, see docs/production.md) and ends with the
 * signal's own default action. A second signal while it closes changes nothing.
 */
@Injectable()
export class Draining implements OnApplicationShutdown {
  private readonly logger = new Logger(Draining.name);
  private since: number | null = null;
  private unsubscribe?: () => void;

  /** Whether the panel has begun to shut down. */
  get started(): boolean {
    return this.since !== null;
  }

  /** Takes over SIGTERM and SIGINT for `app` (in place of `enableShutdownHooks`). */
  listen(app: INestApplication, drainMs: number): void {
    let closing: Promise<void> | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      closing ??= (async () => {
        this.since = Date.now();
        if (drainMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, drainMs));
        }
        await app.close();
        process.kill(process.pid, signal);
      })().catch((e: unknown) => {
        // A step of the shutdown failed: the process still ends, saying why.
        this.logger.error(`Shutdown failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        process.exit(1);
      });
    };
    for (const signal of SIGNALS) {
      process.on(signal, onSignal);
    }
    this.unsubscribe = () => SIGNALS.forEach((signal) => process.removeListener(signal, onSignal));
  }

  onApplicationShutdown(): void {
    // Closed (by a signal or by its owner): the default actions apply again, and no listener outlives the app.
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
