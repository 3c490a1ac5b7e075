import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * A local HTTP server for egg documents on 127.0.0.1: it serves `docs` (which a test may change between
 * requests), hands any other path to `fallback` (else 404), and keeps the paths it was asked for.
 */
export class EggHost {
  readonly docs = new Map<string, string>();
  readonly requests: string[] = [];
  private readonly server: http.Server;

  constructor(fallback?: Handler) {
    this.server = http.createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const doc = this.docs.get(req.url ?? '');
      if (doc !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(doc);
      } else if (fallback) {
        fallback(req, res);
      } else {
        res.writeHead(404).end('not found');
      }
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
