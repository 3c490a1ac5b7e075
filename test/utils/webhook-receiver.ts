import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
}

/**
 * A local HTTP endpoint for webhook tests: records every POST, and answers 500 to the first
 * `failFirst(path)` requests to a path, 200 after.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private readonly failures = new Map<string, number>();
  private server: Server | null = null;
  private base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const left = this.failures.get(path) ?? 0;
        const status = left > 0 ? 500 : 200;
        this.failures.set(path, left - 1);
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver is failing on purpose');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** The next `count` requests to `path` get 500 (every one when `count` is Infinity). */
  failFirst(path: string, count: number): void {
    this.failures.set(path, count);
  }

  /** What `path` received, with parsed bodies. */
  at(path: string): (ReceivedHook & { json: Record<string, unknown> })[] {
    return this.received.filter((r) => r.path === path).map((r) => ({ ...r, json: JSON.parse(r.body) as Record<string, unknown> }));
  }

  /** The events `path` was sent and answered 200 to, in order. */
  eventsAt(path: string): string[] {
    return this.at(path)
      .filter((r) => r.status === 200)
      .map((r) => String(r.headers['x-hatchery-event']));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
