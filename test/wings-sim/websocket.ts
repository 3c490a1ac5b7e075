// Server console websocket (docs/wings.md#console-tokens).
import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { JwtError, WebsocketPayload } from 'test/wings-sim/auth';
import { isRecord } from 'test/wings-sim/config';
import { SimContext } from 'test/wings-sim/context';
import { GENERIC_ERROR } from 'test/wings-sim/http-kit';
import { PowerLockedError, handlePowerAction, sendCommand } from 'test/wings-sim/power';
import { SimServer } from 'test/wings-sim/sim-server';
import { ServerEvent, WsMessage } from 'test/wings-sim/types';

const GENERIC_WS_ERROR = 'an unexpected error was encountered while handling this request';
const LOCKED_WS_ERROR = 'another power action is currently being processed for this server, please try again later';
const WEBSOCKET_LOG_COUNT = 150;

const POWER_PERMISSIONS: Record<string, string> = {
  start: 'control.start',
  stop: 'control.stop',
  restart: 'control.restart',
  kill: 'control.stop',
};

/** Decodes a frame the way Go's json.Unmarshal into Message{Event string; Args []string} would. */
function decodeFrame(data: string): WsMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) {
    return null;
  }
  const { event, args } = parsed;
  if (event !== undefined && event !== null && typeof event !== 'string') {
    return null;
  }
  if (args !== undefined && args !== null && (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))) {
    return null;
  }
  return { event: event ?? '', args: Array.isArray(args) ? (args as string[]) : [] };
}

/** One websocket connection (Wings' websocket.Handler). */
class WsConnection {
  private jwt: WebsocketPayload | undefined;
  private listening = false;
  private expiryTimer: NodeJS.Timeout | undefined;
  private readonly onEvent = (e: ServerEvent): void => this.sendJson(e);
  private readonly onDestroy = (): void => this.ws.close(1001, 'server deleted');

  constructor(
    private readonly ws: WebSocket,
    private readonly server: SimServer,
    private readonly sim: SimContext,
  ) {
    server.bus.on('destroy', this.onDestroy);
    ws.on('message', (data, isBinary) => {
      const text = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      const msg = isBinary ? null : decodeFrame(text.toString('utf8'));
      if (msg) {
        // Each inbound message is handled on its own, so replies may interleave.
        this.handleInbound(msg).catch((err: unknown) => this.sendErrorJson(err));
      }
    });
    ws.on('close', () => this.dispose());
    // Protocol errors close the socket; without a listener they would crash the process.
    ws.on('error', () => this.dispose());
  }

  private dispose(): void {
    this.server.bus.off('event', this.onEvent);
    this.server.bus.off('destroy', this.onDestroy);
    clearInterval(this.expiryTimer);
  }

  private rawSend(msg: WsMessage): void {
    // A hung node keeps the socket open and says nothing.
    if (this.ws.readyState !== WebSocket.OPEN || this.sim.faults.hang) {
      return;
    }
    const frame: WsMessage = msg.args && msg.args.length > 0 ? { event: msg.event, args: msg.args } : { event: msg.event };
    this.ws.send(JSON.stringify(frame));
  }

  private has(permission: string): boolean {
    return this.jwt !== undefined && this.sim.wsPolicy.hasPermission(this.jwt, permission);
  }

  /** SendJson: re-validate the token (failure replaces the event), then per-event permission filters. */
  sendJson(msg: WsMessage): void {
    const invalid = this.sim.wsPolicy.validate(this.jwt, this.server.uuid);
    if (invalid !== null) {
      this.rawSend({ event: 'jwt error', args: [invalid] });
      return;
    }
    if (msg.event === 'install output' && !this.has('admin.websocket.install')) {
      return;
    }
    if (msg.event.startsWith('backup completed') && !this.has('backup.read')) {
      return;
    }
    if (msg.event === 'transfer logs' && !this.has('admin.websocket.transfer')) {
      return;
    }
    this.rawSend(msg);
  }

  /** SendErrorJson: JWT errors and (with admin.websocket.errors) real messages; otherwise a generic text. */
  private sendErrorJson(err: unknown): void {
    const isJwt = err instanceof JwtError;
    let text = GENERIC_WS_ERROR;
    if (isJwt || this.has('admin.websocket.errors')) {
      text = err instanceof Error ? err.message : String(err);
    }
    this.rawSend({ event: isJwt ? 'jwt error' : 'daemon error', args: [`Error Event [${randomUUID()}]: ${text}`] });
  }

  private async handleInbound(m: WsMessage): Promise<void> {
    const arg = (m.args ?? []).join('');
    if (m.event !== 'auth') {
      const invalid = this.sim.wsPolicy.validate(this.jwt, this.server.uuid);
      if (invalid !== null) {
        this.rawSend({ event: 'jwt error', args: [invalid] });
        return;
      }
    }
    const s = this.server;
    switch (m.event) {
      case 'auth': {
        const token = this.sim.wsPolicy.parse(arg);
        const first = this.jwt === undefined;
        this.jwt = token;
        this.rawSend({ event: 'auth success' });
        if (!first) {
          return;
        }
        this.startListening();
        this.sendJson({ event: 'status', args: [s.state] });
        if (s.state === 'offline' && !s.installing && !s.transferring) {
          this.sendJson({ event: 'stats', args: [JSON.stringify(await s.utilization())] });
        }
        return;
      }
      case 'set state': {
        const permission = POWER_PERMISSIONS[arg];
        if (permission !== undefined && !this.has(permission)) {
          return;
        }
        try {
          await handlePowerAction(s, arg);
        } catch (err) {
          if (err instanceof PowerLockedError) {
            this.sendJson({ event: 'daemon error', args: [`Error Event [${randomUUID()}]: ${LOCKED_WS_ERROR}`] });
            return;
          }
          throw err;
        }
        return;
      }
      case 'send logs':
        if (s.containerRunning) {
          for (const line of s.logs.slice(-WEBSOCKET_LOG_COUNT)) {
            this.sendJson({ event: 'console output', args: [line] });
          }
        }
        return;
      case 'send stats':
        this.sendJson({ event: 'stats', args: [JSON.stringify(await s.utilization())] });
        return;
      case 'send command':
        if (!this.has('control.console') || s.state === 'offline') {
          return;
        }
        sendCommand(s, arg);
        return;
      default:
        return;
    }
  }

  /** First successful auth: forward server events and watch the token's expiry. */
  private startListening(): void {
    if (this.listening) {
      return;
    }
    this.listening = true;
    this.server.bus.on('event', this.onEvent);
    this.expiryTimer = setInterval(() => {
      const jwt = this.jwt;
      if (!jwt) {
        return;
      }
      const left = jwt.exp - Math.floor(Date.now() / 1000);
      if (left <= 0) {
        this.sendJson({ event: 'token expired' });
      } else if (left <= 60) {
        this.sendJson({ event: 'token expiring' });
      }
    }, this.sim.timing.tokenCheckIntervalMs);
    this.expiryTimer.unref();
  }
}

/** Which server each open console socket belongs to, so a test can cut one server's consoles. */
export const consoleServerOf = new WeakMap<WebSocket, string>();

/** The Origin must equal `remote` exactly or be listed in allowed_origins (or `*`); missing fails. */
function originAllowed(origin: string | undefined, sim: SimContext): boolean {
  const o = origin ?? '';
  if (o === sim.panelUrl()) {
    return true;
  }
  return sim.allowedOrigins().some((a) => a === '*' || a === o);
}

interface UpgradeRequest {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  url: URL;
}

/** The upgrade path: ServerExists (404 JSON) and gorilla's Origin check (403) before switching protocols. */
export function handleUpgrade(sim: SimContext, wss: WebSocketServer, { req, socket, head, url }: UpgradeRequest): void {
  const refuse = (status: number, type: string, body: string): void => {
    const reason = status === 404 ? 'Not Found' : status === 403 ? 'Forbidden' : 'Internal Server Error';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  const match = /^\/api\/servers\/([^/]+)\/ws$/.exec(url.pathname);
  if (!match || req.method !== 'GET') {
    refuse(404, 'text/plain', '404 page not found');
    return;
  }
  if (sim.faults.status500) {
    refuse(500, 'application/json; charset=utf-8', JSON.stringify({ error: GENERIC_ERROR }));
    return;
  }
  const server = sim.servers.get(decodeURIComponent(match[1]));
  if (!server) {
    refuse(404, 'application/json; charset=utf-8', JSON.stringify({ error: 'The requested resource does not exist on this instance.' }));
    return;
  }
  if (!originAllowed(req.headers.origin, sim)) {
    refuse(403, 'text/plain; charset=utf-8', 'Forbidden\n');
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    consoleServerOf.set(ws, server.uuid);
    new WsConnection(ws, server, sim);
  });
}
