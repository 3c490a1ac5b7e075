import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaptchaProvider } from 'src/config/env.schema';

/** How the fake answers: as a working provider, or as one of the ways a provider is down. */
export type FakeCaptchaMode = 'answer' | 'drop-connection' | 'http-500' | 'not-json' | 'no-success-field' | 'hang';

interface SiteverifyRequest {
  method: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * A local stand-in for a provider's siteverify endpoint (Turnstile, hCaptcha or reCAPTCHA v3): it takes
 * the form-encoded `secret`, `response`, `remoteip` and answers in the provider's JSON shape. Tokens the
 * test did not register fail like an invalid response would.
 */
export class FakeCaptchaServer {
  readonly requests: SiteverifyRequest[] = [];
  mode: FakeCaptchaMode = 'answer';
  private readonly answers = new Map<string, Record<string, unknown>>();

  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  private constructor(
    readonly provider: CaptchaProvider,
    readonly secret: string,
  ) {}

  static async start(provider: CaptchaProvider, secret: string): Promise<FakeCaptchaServer> {
    const fake = new FakeCaptchaServer(provider, secret);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
  }

  /** A new token the provider will pass; for reCAPTCHA with this score (default 0.9). */
  pass(score = 0.9): string {
    const token = `pass-${randomBytes(12).toString('hex')}`;
    const base = { success: true, challenge_ts: new Date().toISOString(), hostname: 'panel.test' };
    this.answers.set(token, this.provider === 'recaptcha' ? { ...base, score, action: 'sign_in' } : base);
    return token;
  }

  /** A token the provider answers for with `answer` as is. */
  answer(answer: Record<string, unknown>): string {
    const token = `custom-${randomBytes(12).toString('hex')}`;
    this.answers.set(token, answer);
    return token;
  }

  reset(): void {
    this.mode = 'answer';
    this.requests.length = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) {
      chunks.push(chunk);
    }
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    this.requests.push({ method: req.method ?? '', contentType: req.headers['content-type'], form });
    switch (this.mode) {
      case 'drop-connection':
        req.socket.destroy();
        return;
      case 'hang':
        return; // never answers; close() cuts the connection
      case 'http-500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service temporarily unavailable</body></html>');
        return;
      case 'no-success-field':
        this.json(res, { 'error-codes': [] });
        return;
      case 'answer':
        break;
    }
    if (form.secret !== this.secret) {
      this.json(res, { success: false, 'error-codes': ['invalid-input-secret'] });
      return;
    }
    this.json(res, this.answers.get(form.response ?? '') ?? { success: false, 'error-codes': ['invalid-input-response'] });
  }

  private json(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}
