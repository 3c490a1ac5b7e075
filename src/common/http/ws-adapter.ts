import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AbstractWsAdapter, MessageMappingProperties } from '@nestjs/websockets';
import type { FastifyInstance } from 'fastify';
import { EMPTY, Observable } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import type { HttpReply, HttpRequest } from 'src/common/http/http';

/** What a gateway passes to `@WebSocketGateway(0, options)` for this adapter. */
export interface WsGatewayOptions {
  /** The path of the controller route that completes the upgrade (see `completeUpgrade`). */
  path: string;
  /** The largest frame a client may send, in bytes; a larger one closes the connection with 1009. */
  maxPayload: number;
  /** At most this many frames from one client per `windowMs`; one more closes the connection with 1008. */
  maxMessages: number;
  windowMs: number;
}

/** A frame the panel sends when it cannot act on a client's frame (docs/api.md#live-status). */
export const wsError = (code: string, message: string) => ({ event: 'error', data: { code, message } });

const PENDING = Symbol('hatchery:pending-upgrade');
interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  res: ServerResponse;
}
type UpgradeRequest = IncomingMessage & { [PENDING]?: PendingUpgrade };
type GatewayServer = WebSocketServer & { hatcheryOptions?: WsGatewayOptions };

/**
 * WebSockets on Fastify's own HTTP server, for `@nestjs/websockets` gateways. Every upgrade request
 * goes through Fastify's routing like any request, so the global guards (rate limit, credentials),
 * the error filter and the request id apply to it; a refusal is an ordinary HTTP answer (401, 403,
 * 429...) after which the socket is closed. The route's handler completes the upgrade with
 * `completeUpgrade`. Frames are `{"event", "data"}` JSON; bad JSON and unknown events are answered
 * with an `error` frame instead of being dropped silently, and each connection's frame rate is bounded.
 */
export class FastifyWsAdapter extends AbstractWsAdapter {
  constructor(private readonly fastify: FastifyInstance) {
    super(fastify.server);
    fastify.server.on('upgrade', this.onUpgrade);
  }

  private readonly onUpgrade = (req: UpgradeRequest, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    // Node no longer parses this socket: one answer, then it closes.
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.on('finish', () => socket.end());
    req[PENDING] = { socket, head, res };
    this.fastify.routing(req, res);
  };

  create(port: number, options?: Partial<WsGatewayOptions>): GatewayServer {
    if (port !== 0 || !options?.path || !options.maxPayload || !options.maxMessages || !options.windowMs) {
      throw new Error('FastifyWsAdapter: a gateway shares the HTTP port (0) and sets path, maxPayload, maxMessages and windowMs');
    }
    const server: GatewayServer = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload, perMessageDeflate: false });
    server.hatcheryOptions = options as WsGatewayOptions;
    return server;
  }

  bindMessageHandlers(client: WebSocket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    const options = (client as WebSocket & { hatcheryOptions?: WsGatewayOptions }).hatcheryOptions;
    const byEvent = new Map(handlers.map((h): [unknown, MessageMappingProperties] => [h.message, h]));
    const send = (frame: unknown) => {
      if (client.readyState === WebSocket.OPEN && frame !== undefined && frame !== null) {
        client.send(JSON.stringify(frame));
      }
    };
    let windowStart = Date.now();
    let count = 0;
    client.on('message', (raw: Buffer, isBinary: boolean) => {
      const now = Date.now();
      if (options && now - windowStart >= options.windowMs) {
        windowStart = now;
        count = 0;
      }
      count += 1;
      if (options && count > options.maxMessages) {
        client.close(1008, 'Too many messages');
        return;
      }
      let message: unknown;
      try {
        message = isBinary ? undefined : JSON.parse(raw.toString('utf8'));
      } catch {
        message = undefined;
      }
      if (message === null || typeof message !== 'object' || typeof (message as { event?: unknown }).event !== 'string') {
        send(wsError('INVALID_JSON', 'A frame must be a JSON text frame {"event": string, "data": ...}'));
        return;
      }
      const { event, data } = message as { event: string; data?: unknown };
      const handler = byEvent.get(event);
      if (!handler) {
        send(wsError('UNKNOWN_EVENT', `Unknown event ${JSON.stringify(event.slice(0, 64))}`));
        return;
      }
      let result: Observable<unknown>;
      try {
        result = transform(handler.callback(data, event));
      } catch {
        result = EMPTY;
      }
      result.subscribe({ next: send, error: () => send(wsError('INTERNAL_ERROR', 'The frame could not be handled')) });
    });
  }

  override bindClientConnect(server: GatewayServer, callback: (client: WebSocket, req: IncomingMessage) => void): void {
    server.on('connection', (client: WebSocket & { hatcheryOptions?: WsGatewayOptions }, req: IncomingMessage) => {
      client.hatcheryOptions = server.hatcheryOptions;
      // A client that vanishes mid-frame must not throw out of the socket.
      client.on('error', () => client.terminate());
      callback(client, req);
    });
  }

  override bindClientDisconnect(client: WebSocket, callback: () => void): void {
    client.on('close', callback);
  }

  override async close(server: GatewayServer): Promise<void> {
    for (const client of server.clients) {
      client.terminate();
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  override async dispose(): Promise<void> {
    this.fastify.server.off('upgrade', this.onUpgrade);
    await Promise.resolve();
  }
}

/** Whether this request arrived as a WebSocket upgrade (FastifyWsAdapter routed it). */
export const isUpgrade = (req: HttpRequest): boolean => (req.raw as UpgradeRequest)[PENDING] !== undefined;

/**
 * Finishes the upgrade of the request a route accepted: the reply is handed over to `ws` (it writes
 * the 101 or, for a bad handshake, a 400) and the gateway's connection handler gets the socket.
 * `onOpen` runs first, with the new socket, so per-connection state is in place before any frame.
 */
export const completeUpgrade = (server: WebSocketServer, req: HttpRequest, reply: HttpReply, onOpen: (client: WebSocket) => void): void => {
  const raw = req.raw as UpgradeRequest;
  const pending = raw[PENDING];
  if (!pending) {
    throw new Error('completeUpgrade on a request that is not an upgrade');
  }
  void reply.hijack();
  pending.res.detachSocket(pending.socket as Socket);
  server.handleUpgrade(raw, pending.socket, pending.head, (client) => {
    onOpen(client);
    server.emit('connection', client, raw);
  });
};
