import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { NodeEntity } from 'src/modules/nodes/node.entity';
import type { TestApp } from 'test/utils/create-test-app';

// Untyped JSON documents and response bodies, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
export type Method = 'get' | 'post' | 'patch' | 'delete';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const DECIMAL_ID = /^[1-9]\d*$/;
export const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

export const denial = (statusCode: number, code: string, message: string): Json => ({ statusCode, code, message, requestId: expect.any(String) });
export const expectError = (res: Response, statusCode: number, code: string, message: string): void => {
  expect([res.status, res.body]).toEqual([statusCode, denial(statusCode, code, message)]);
};
export const expectValidation = (res: Response, details: unknown): void => {
  expect([res.status, res.body]).toEqual([
    400,
    { statusCode: 400, code: 'VALIDATION_FAILED', message: 'Validation failed', details, requestId: expect.any(String) },
  ]);
};
export const missingScope = (scope: string): Json => denial(403, 'MISSING_SCOPE', `The API key lacks the ${scope} scope this action requires`);
export const ADMIN_REQUIRED = denial(403, 'ADMIN_REQUIRED', 'This action requires an administrator');
export const UNAUTHENTICATED = denial(401, 'UNAUTHENTICATED', 'Authentication required');

/** What GET /api/system of the fake daemon answers (without ?v=2). */
export const SYSTEM_INFO = { architecture: 'amd64', cpu_count: 4, kernel_version: '6.1', os: 'linux', version: '1.11.11' };

export interface DaemonCall {
  method: string;
  /** Path with query string, as sent. */
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
}

/** `body` is sent as JSON, `raw` as it is; `hang`: accept the request and never answer. */
type DaemonReply = { status: number; body?: unknown; raw?: string } | 'hang';

/**
 * A tiny stand-in for Wings on 127.0.0.1: it records every request and answers POST /api/update
 * with `{"applied":true}` and GET /api/system with SYSTEM_INFO unless `reply` says otherwise.
 */
export class FakeDaemon {
  readonly calls: DaemonCall[] = [];
  /** Returns the answer for a call, or undefined for the default one. */
  reply?: (call: DaemonCall) => DaemonReply | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeDaemon> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const daemon = new FakeDaemon(server, (server.address() as AddressInfo).port);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      void daemon.handle(req, res);
    });
    return daemon;
  }

  /** The configuration pushes (POST /api/update) received so far. */
  updates(): DaemonCall[] {
    return this.calls.filter((c) => c.path === '/api/update');
  }

  /**
   * The daemon "goes down" but keeps its port: every connection is dropped at once. Closing the
   * port instead would let another test's server take it in between.
   */
  goDown(): void {
    this.server.removeAllListeners('request');
    this.server.on('connection', (socket) => socket.destroy());
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    if (this.server.listening) {
      await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const call: DaemonCall = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: raw.length > 0 ? JSON.parse(raw) : undefined,
    };
    this.calls.push(call);
    const reply = this.reply?.(call) ?? this.defaultReply(call);
    if (reply === 'hang') {
      return;
    }
    res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  }

  private defaultReply(call: DaemonCall): DaemonReply {
    if (call.method === 'POST' && call.path === '/api/update') {
      return { status: 200, body: { applied: true } };
    }
    if (call.method === 'GET' && call.path === '/api/system') {
      return { status: 200, body: SYSTEM_INFO };
    }
    return { status: 404, body: { error: 'The requested resource does not exist on this instance.' } };
  }
}

/** A port on 127.0.0.1 that nothing listens on (it was just bound and released). */
export const closedPort = async (): Promise<number> => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

/** The fields of a node the service records in audit entries (NODE_FIELDS), from a stored row. */
export const nodeSnapshot = (n: NodeEntity): Json => ({
  name: n.name,
  description: n.description,
  locationId: n.locationId,
  backupHostId: n.backupHostId,
  fqdn: n.fqdn,
  scheme: n.scheme,
  public: n.public,
  maintenanceMode: n.maintenanceMode,
  allowInsecure: n.allowInsecure,
  behindProxy: n.behindProxy,
  memory: n.memory,
  memoryOverallocate: n.memoryOverallocate,
  disk: n.disk,
  diskOverallocate: n.diskOverallocate,
  uploadSize: n.uploadSize,
  daemonBase: n.daemonBase,
  daemonListen: n.daemonListen,
  daemonSftp: n.daemonSftp,
  daemonAuth: n.daemonAuth,
});

/** The response body of a node, as the admin API must render a stored row: no token, ids as strings. */
export const nodeBody = (n: NodeEntity): Json => ({
  id: n.id,
  uuid: n.uuid,
  ...nodeSnapshot(n),
  baseUrl: n.baseUrl,
  tokenIdentifier: n.tokenIdentifier,
  lastSeenAt: n.lastSeenAt === null ? null : n.lastSeenAt.toISOString(),
  daemonContactedAt: n.daemonContactedAt === null ? null : n.daemonContactedAt.toISOString(),
  createdAt: n.createdAt.toISOString(),
  updatedAt: n.updatedAt.toISOString(),
});

export const loadNode = (t: TestApp, id: string): Promise<NodeEntity | null> => t.app.get(DataSource).getRepository(NodeEntity).findOneBy({ id });

/** The raw `token_secret` column of a node. */
export const sealedTokenOf = async (t: TestApp, id: string): Promise<string> =>
  (await t.app.get(DataSource).query<{ token_secret: string }[]>('SELECT token_secret FROM node WHERE id = $1', [id]))[0].token_secret;

/** A create body with the required fields only, pointing at a daemon on 127.0.0.1:`port`. */
export const localNodeBody = (port: number, overrides: Json = {}): Json => ({
  name: `node-${port}`,
  fqdn: '127.0.0.1',
  scheme: 'http',
  daemonListen: port,
  memory: 8192,
  disk: 102400,
  ...overrides,
});

/** Every key path of a JSON object down to its leaves (arrays and scalars are leaves). */
export const keyPaths = (value: unknown, prefix = ''): string[] => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [prefix];
  }
  return Object.entries(value as Json).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
};

/** The key paths of the configuration the panel generates for Wings (docs/wings.md#configuration). */
export const CONFIG_KEY_PATHS = [
  'debug',
  'uuid',
  'token_id',
  'token',
  'api.host',
  'api.port',
  'api.ssl.enabled',
  'api.ssl.cert',
  'api.ssl.key',
  'api.upload_limit',
  'system.data',
  'system.sftp.bind_port',
  'allowed_mounts',
  'remote',
];
