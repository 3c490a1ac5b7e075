// Shared setup for the simulator's specs: a fake panel, a started simulator, JWT and websocket helpers.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { WebSocket } from 'ws';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { FakePanel } from 'test/wings-sim/testing/fake-panel';
import { WingsSimulatorOptions, WsMessage } from 'test/wings-sim/types';

export const TOKEN_ID = 'abcdefghijklmnop';
export const TOKEN = randomBytes(32).toString('hex');

export interface Harness {
  panel: FakePanel;
  sim: WingsSimulator;
  url: string;
  auth: { Authorization: string };
}

export async function startHarness(opts: Partial<WingsSimulatorOptions> = {}): Promise<Harness> {
  const panel = new FakePanel(TOKEN_ID, TOKEN);
  const panelUrl = await panel.start();
  const sim = new WingsSimulator({
    panelUrl,
    tokenId: TOKEN_ID,
    token: TOKEN,
    remoteTimeoutMs: 2000,
    timing: { lineDelayMs: 10, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
    ...opts,
  });
  const { url } = await sim.start();
  return { panel, sim, url, auth: { Authorization: `Bearer ${TOKEN}` } };
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
  await h?.sim.stop();
  await h?.panel.stop();
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error('waitFor: timed out');
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Registers a server in the fake panel and creates it on the simulator; waits for the install callback. */
export async function createInstalledServer(h: Harness, settings: Record<string, unknown> = {}, processConfiguration?: unknown): Promise<string> {
  const uuid = randomUUID();
  h.panel.addServer(uuid, settings, processConfiguration);
  const res = await fetch(`${h.url}/api/servers`, {
    method: 'POST',
    headers: { ...h.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ uuid, start_on_completion: false }),
  });
  if (res.status !== 202) {
    throw new Error(`create failed: ${res.status}`);
  }
  await waitFor(() => h.panel.callsTo(`/api/remote/servers/${uuid}/install`, 'POST').length > 0);
  await waitFor(() => !h.sim.servers.get(uuid)?.installing);
  return uuid;
}

interface ClaimsInput {
  [k: string]: unknown;
}

/** Signs like the panel: HS256 with the node token (jsonwebtoken keeps a given `iat`). */
export function sign(claims: ClaimsInput, key = TOKEN): string {
  return jwt.sign(claims, key, { algorithm: 'HS256' });
}

/** Signs an exact payload text (to send `1.5` dates or omit `iat`, which jsonwebtoken would rewrite). */
export function signRaw(payloadJson: string, key = TOKEN): string {
  const enc = (s: string): string => Buffer.from(s).toString('base64url');
  const input = `${enc(JSON.stringify({ typ: 'JWT', alg: 'HS256' }))}.${enc(payloadJson)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

export function wsClaims(uuid: string, overrides: ClaimsInput = {}): ClaimsInput {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: 'http://panel.test',
    aud: ['http://wings.test'],
    jti: randomUUID().replace(/-/g, ''),
    iat: now,
    nbf: now - 300,
    exp: now + 600,
    server_uuid: uuid,
    permissions: ['*'],
    user_uuid: randomUUID(),
    user_id: 1,
    unique_id: randomBytes(8).toString('hex'),
    ...overrides,
  };
}

/** A websocket client that keeps every frame and can wait for one. */
export class WsClient {
  readonly messages: WsMessage[] = [];
  closeCode: number | null = null;
  closeReason = '';

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => this.messages.push(JSON.parse(d.toString('utf8')) as WsMessage));
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
    });
  }

  /** `origin: null` sends no Origin header at all. */
  static connect(h: Harness, uuid: string, origin: string | null = h.sim.configuration.panelUrl): Promise<WsClient> {
    return WsClient.open(`${h.url.replace('http', 'ws')}/api/servers/${uuid}/ws`, origin);
  }

  /** Opens a socket URL as a browser on `origin` would (the panel hands out such URLs). */
  static open(socketUrl: string, origin: string | null): Promise<WsClient> {
    const ws = new WebSocket(socketUrl, origin ? { headers: { Origin: origin } } : {});
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(event: string, ...args: string[]): void {
    this.ws.send(JSON.stringify(args.length > 0 ? { event, args } : { event }));
  }

  events(name: string): WsMessage[] {
    return this.messages.filter((m) => m.event === name);
  }

  next(predicate: (m: WsMessage) => boolean, timeoutMs = 5000): Promise<WsMessage> {
    return waitFor(() => this.messages.find(predicate), timeoutMs);
  }

  /** Authenticates and waits for `auth success`. */
  async auth(token: string): Promise<void> {
    this.send('auth', token);
    await this.next((m) => m.event === 'auth success');
  }

  close(): void {
    this.ws.close();
  }
}
