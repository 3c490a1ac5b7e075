import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';

// Untyped frames, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LiveFrame = { event: string; data: any; at: number };

/** How an upgrade was refused: the HTTP answer instead of a 101. */
interface Refusal {
  status: number;
  body: unknown;
}

/**
 * A client of the panel's live-status socket (`/api/ws`) on the npm `ws` package, as a script would
 * use it: it records every frame with the time it came, and waits for frames by predicate.
 */
export class LiveClient {
  readonly frames: LiveFrame[] = [];
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw: Buffer) => {
      this.frames.push({ ...(JSON.parse(raw.toString('utf8')) as { event: string; data: unknown }), at: Date.now() });
      for (const wake of this.waiters) {
        wake();
      }
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens the socket; rejects with the Refusal when the panel answers the upgrade with anything but 101. */
  static connect(url: string, headers: Record<string, string>): Promise<LiveClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.on('unexpected-response', (_req, res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          reject(Object.assign(new Error(`upgrade refused with ${res.statusCode}`), { status: res.statusCode ?? 0, body } satisfies Refusal));
        });
      });
      socket.on('error', reject);
      socket.on('open', () => resolve(new LiveClient(socket)));
    });
  }

  send(event: string, data: unknown): void {
    this.socket.send(JSON.stringify({ event, data }));
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  /** The first frame from index `from` on that matches; waits for it up to `timeoutMs`. */
  async next(match: (f: LiveFrame) => boolean, from = 0, timeoutMs = 10_000): Promise<LiveFrame> {
    const found = () => this.frames.slice(from).find(match);
    const already = found();
    if (already) {
      return already;
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(from).map((f) => f.event))}`));
      }, timeoutMs);
      const check = () => {
        const frame = found();
        if (frame) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve(frame);
        }
      };
      this.waiters.add(check);
    });
  }

  /** Sends a subscribe and returns the `subscribed` answer's servers. */
  async subscribe(servers: string[]): Promise<string[]> {
    const from = this.frames.length;
    this.send('subscribe', { servers });
    return (await this.next((f) => f.event === 'subscribed' || f.event === 'error', from)).data.servers as string[];
  }

  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) {
      this.socket.close();
    }
    await this.closed;
  }
}

/** `refused` when the upgrade was refused, so a test can assert the HTTP answer. */
export const refusalOf = async (attempt: Promise<LiveClient>): Promise<Refusal> => {
  try {
    const client = await attempt;
    await client.close();
  } catch (e) {
    const { status, body } = e as Partial<Refusal>;
    if (status !== undefined) {
      return { status, body };
    }
    throw e;
  }
  throw new Error('the upgrade was accepted');
};
