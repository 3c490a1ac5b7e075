// A tiny stand-in for the panel's `/api/remote/*` routes, for the simulator's own tests.
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

interface PanelCallRecord {
  method: string;
  path: string;
  authorization: string | undefined;
  userAgent: string | undefined;
  body: unknown;
}

const PAPER_PROCESS_CONFIGURATION = {
  startup: { done: [')! For help, type '], user_interaction: [], strip_ansi: false },
  stop: { type: 'command', value: 'stop' },
  configs: [
    { parser: 'properties', file: 'server.properties', replace: [{ match: 'server-port', replace_with: '25565' }] },
  ],
};

function serverSettings(uuid: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uuid,
    meta: { name: 'Test server', description: '' },
    suspended: false,
    invocation: 'java -Xms128M -jar server.jar',
    skip_egg_scripts: false,
    environment: { SERVER_JARFILE: 'server.jar' },
    allocations: { force_outgoing_ip: false, default: { ip: '127.0.0.1', port: 25565 }, mappings: { '127.0.0.1': [25565] } },
    build: { memory_limit: 1024, swap: 0, io_weight: 500, cpu_limit: 100, threads: null, disk_space: 0, oom_disabled: false },
    mounts: [],
    egg: { id: randomUUID(), file_denylist: [] },
    container: { image: 'ghcr.io/pterodactyl/yolks:java_21', oom_disabled: false, requires_rebuild: false },
    ...overrides,
  };
}

/** Answers like the panel's daemon guard: 401 without `Bearer <id>.<secret>`, 403 on a wrong pair. */
export class FakePanel {
  readonly calls: PanelCallRecord[] = [];
  readonly servers = new Map<string, { settings: Record<string, unknown>; process_configuration: unknown }>();
  /** Force a status for paths matching a prefix (e.g. '/api/remote/servers/' → 500). */
  readonly failures = new Map<string, number>();
  /** Delay before every answer (to hold a power lock while a start syncs). */
  delayMs = 0;
  private http: Server | null = null;
  url = '';

  constructor(
    readonly tokenId: string,
    readonly token: string,
  ) {}

  addServer(uuid: string, settings: Record<string, unknown> = {}, processConfiguration: unknown = PAPER_PROCESS_CONFIGURATION): void {
    this.servers.set(uuid, { settings: serverSettings(uuid, settings), process_configuration: processConfiguration });
  }

  callsTo(path: string, method?: string): PanelCallRecord[] {
    return this.calls.filter((c) => c.path === path && (method === undefined || c.method === method));
  }

  async start(): Promise<string> {
    this.http = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const http = this.http;
    if (http) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  }

  private send(res: ServerResponse, status: number, body?: unknown): void {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) {
      chunks.push(c);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    this.calls.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
      body: raw === '' ? undefined : (JSON.parse(raw) as unknown),
    });
    if (this.delayMs > 0) {
      await new Promise((r) => setTimeout(r, this.delayMs));
    }
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) {
      this.send(res, 401, { errors: [{ code: 'HttpException', status: '401', detail: 'Unauthenticated.' }] });
      return;
    }
    if (auth !== `Bearer ${this.tokenId}.${this.token}`) {
      this.send(res, 403, { errors: [{ code: 'AccessDeniedHttpException', status: '403', detail: 'You are not authorized to access this resource.' }] });
      return;
    }
    for (const [prefix, status] of this.failures) {
      if (url.pathname.startsWith(prefix)) {
        this.send(res, status, { errors: [{ code: 'Forced', status: String(status), detail: 'forced failure' }] });
        return;
      }
    }
    const m = /^\/api\/remote\/servers\/([0-9a-f-]{36})(\/install)?$/.exec(url.pathname);
    if (m) {
      const server = this.servers.get(m[1]);
      if (!server) {
        this.send(res, 404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Not found.' }] });
        return;
      }
      if (req.method === 'GET' && m[2] === undefined) {
        this.send(res, 200, server);
      } else if (req.method === 'GET') {
        this.send(res, 200, { container_image: 'ghcr.io/pterodactyl/installers:alpine', entrypoint: 'ash', script: '#!/bin/ash\r\necho hi\r\n' });
      } else {
        this.send(res, 204);
      }
      return;
    }
    if (/^\/api\/remote\/servers\/[0-9a-f-]{36}\/transfer\/(success|failure)$/.test(url.pathname)) {
      this.send(res, 204);
      return;
    }
    if (req.method === 'POST' && /^\/api\/remote\/backups\/[^/]+(\/restore)?$/.test(url.pathname)) {
      this.send(res, 204);
      return;
    }
    this.send(res, 404, { errors: [{ code: 'NotFoundHttpException', status: '404', detail: 'Route not found.' }] });
  }
}
