// WingsSimulator: a loopback HTTP + WebSocket server speaking the Wings protocol (see index.ts for coverage).
import { randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { UniqueIdStore, WebsocketTokenPolicy, checkBearer } from 'test/wings-sim/auth';
import { registerBackupRoutes } from 'test/wings-sim/backups';
import { JsonRecord, asRecord, asStringArray, parsePanelConfiguration } from 'test/wings-sim/config';
import { SimContext, SimFaults } from 'test/wings-sim/context';
import { registerFileRoutes } from 'test/wings-sim/files-routes';
import { GENERIC_ERROR, HttpError, RequestContext, RouteTable, setCorsHeaders, toHttpError } from 'test/wings-sim/http-kit';
import { InstallOptions } from 'test/wings-sim/install';
import { PanelClient } from 'test/wings-sim/panel-client';
import { crashProcess, installCrashHandler, terminate } from 'test/wings-sim/power';
import { registerServerRoutes } from 'test/wings-sim/server-routes';
import { registerSignedRoutes } from 'test/wings-sim/signed-routes';
import { registerTransferRoutes } from 'test/wings-sim/transfers';
import { SimServer } from 'test/wings-sim/sim-server';
import { PanelServerConfiguration, RecordedRequest, SimulatorTiming, WingsSimulatorOptions } from 'test/wings-sim/types';
import { consoleServerOf, handleUpgrade } from 'test/wings-sim/websocket';

const DEFAULT_TIMING: SimulatorTiming = { lineDelayMs: 50, statsIntervalMs: 1000, tokenCheckIntervalMs: 30_000, installDurationMs: 200 };

/** Every fault switch, off; the type makes a new switch in SimFaults fail to compile until it is listed here. */
const NO_FAULTS: { [K in keyof Required<SimFaults>]: undefined } = {
  down: undefined,
  hang: undefined,
  slowMs: undefined,
  status500: undefined,
  malformedJson: undefined,
  wrongToken: undefined,
  installFails: undefined,
  backupFails: undefined,
  transferSourceFails: undefined,
  transferSourceDiesMidStream: undefined,
  transferTargetFails: undefined,
  transferTargetSilent: undefined,
  backupUploadFailsAfterParts: undefined,
};

/** Fault switches; turning `down` on cuts every open connection at once, turning `hang` off closes what it held. */
class FaultSwitches implements SimFaults {
  slowMs?: number;
  status500?: boolean;
  malformedJson?: boolean;
  wrongToken?: boolean;
  installFails?: boolean;
  backupFails?: boolean;
  transferSourceFails?: boolean;
  transferSourceDiesMidStream?: boolean;
  transferTargetFails?: boolean;
  transferTargetSilent?: boolean;
  backupUploadFailsAfterParts?: number;
  private isDown = false;
  private isHung = false;

  constructor(
    private readonly onDown: () => void,
    private readonly onHangEnd: () => void,
  ) {}

  get hang(): boolean {
    return this.isHung;
  }

  set hang(v: boolean | undefined) {
    const was = this.isHung;
    this.isHung = v === true;
    if (was && !this.isHung) {
      this.onHangEnd();
    }
  }

  get down(): boolean {
    return this.isDown;
  }

  set down(v: boolean | undefined) {
    this.isDown = v === true;
    if (this.isDown) {
      this.onDown();
    }
  }
}

interface SimulatorConfiguration {
  token: string;
  tokenId: string;
  panelUrl: string;
  allowedOrigins: string[];
  appName: string;
  uploadLimitMb: number;
  /** config `ignore_panel_config_updates`: POST /api/update answers {"applied":false}. */
  ignorePanelConfigUpdates: boolean;
}

export class WingsSimulator implements SimContext {
  readonly requests: RecordedRequest[] = [];
  readonly servers = new Map<string, SimServer>();
  readonly faults: SimFaults;
  readonly panel: PanelClient;
  readonly uniqueIds = new UniqueIdStore();
  readonly wsPolicy: WebsocketTokenPolicy;
  readonly timing: SimulatorTiming;
  readonly installOptions: InstallOptions;
  /** The last body the panel pushed with POST /api/update. */
  lastConfigUpdate: JsonRecord | null = null;
  backupDir = '';
  private volumesDir = '';
  private dataDir = '';
  private ownsDataDir = false;
  private bootTimeMs = 0;
  private http: Server | null = null;
  private readonly sockets = new Set<Socket | Duplex>();
  /** Connections whose request or upgrade a hung node holds unanswered. */
  private readonly held = new Set<Socket | Duplex>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly routes = new RouteTable();
  private readonly cfg: SimulatorConfiguration;

  constructor(private readonly opts: WingsSimulatorOptions) {
    this.cfg = {
      token: opts.token,
      tokenId: opts.tokenId,
      panelUrl: opts.panelUrl,
      allowedOrigins: opts.allowedOrigins ?? [],
      appName: opts.appName ?? 'Pterodactyl',
      uploadLimitMb: opts.uploadLimitMb ?? 100,
      ignorePanelConfigUpdates: false,
    };
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.faults = new FaultSwitches(
      () => this.cutConnections(),
      () => this.releaseHeld(),
    );
    this.panel = new PanelClient({
      panelUrl: () => this.cfg.panelUrl,
      tokenId: () => this.cfg.tokenId,
      token: () => this.cfg.token,
      timeoutMs: opts.remoteTimeoutMs ?? 30_000,
      retryBudgetMs: opts.remoteRetryBudgetMs ?? 0,
      wrongToken: () => this.faults.wrongToken === true,
    });
    this.wsPolicy = new WebsocketTokenPolicy(
      () => this.bootTimeMs,
      () => this.cfg.token,
    );
    this.installOptions = { shouldFail: () => this.faults.installFails === true, log: (m) => this.log(m) };
    registerServerRoutes(this.routes, this);
    registerFileRoutes(this.routes, this);
    registerBackupRoutes(this.routes, this);
    registerSignedRoutes(this.routes, this);
    registerTransferRoutes(this.routes, this);
    this.routes.add('GET', '/api/servers/:server/ws', 'public', (c) => {
      if (!this.servers.has(c.params.server)) {
        throw new HttpError(404, 'The requested resource does not exist on this instance.');
      }
      // Reached only without an Upgrade header: gorilla refuses a plain GET.
      c.res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      c.res.end('Bad Request\n');
    });
  }

  /** Websocket tokens need `iat` ≥ this instant (whole seconds unless opts.bootTime says otherwise). */
  get bootTime(): Date {
    return new Date(this.bootTimeMs);
  }

  get url(): string {
    const addr = this.http?.address() as AddressInfo | null | undefined;
    return addr ? `http://${this.opts.host ?? '127.0.0.1'}:${addr.port}` : '';
  }

  get configuration(): Readonly<SimulatorConfiguration> {
    return this.cfg;
  }

  /**
   * Turns every fault switch off and says whether any was on. For a test's `finally` or `afterEach`,
   * so a test that fails with a fault set cannot leave it to the next one.
   */
  resetFaults(): boolean {
    const wasOn = (Object.keys(NO_FAULTS) as (keyof SimFaults)[]).some((name) => Boolean(this.faults[name]));
    Object.assign(this.faults, NO_FAULTS);
    return wasOn;
  }

  /** Change node configuration in place (token rotation, panel URL, origins …). */
  setConfiguration(patch: Partial<SimulatorConfiguration>): void {
    Object.assign(this.cfg, patch);
  }

  async start(): Promise<{ url: string; port: number }> {
    this.bootTimeMs = this.opts.bootTime?.getTime() ?? Math.floor(Date.now() / 1000) * 1000;
    this.ownsDataDir = this.opts.dataDir === undefined;
    this.dataDir = this.opts.dataDir ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'wings-sim-')));
    this.volumesDir = path.join(this.dataDir, 'volumes');
    this.backupDir = path.join(this.dataDir, 'backups');
    await fsp.mkdir(this.volumesDir, { recursive: true });
    await fsp.mkdir(this.backupDir, { recursive: true });
    const http = createServer((req, res) => {
      // Nothing a client or the panel does may crash the simulator.
      this.onRequest(req, res).catch((err: unknown) => {
        this.log(`request failed: ${String(err)}`);
        if (!res.headersSent) {
          res.writeHead(500).end();
        }
      });
    });
    http.on('connection', (socket) => this.track(socket));
    http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      if (this.faults.down) {
        socket.destroy();
        return;
      }
      if (this.faults.hang) {
        this.hold(socket);
        return;
      }
      this.preamble(req)
        .then(({ url }) => handleUpgrade(this, this.wss, { req, socket, head, url }))
        .catch(() => socket.destroy());
    });
    this.http = http;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', () => resolve());
    });
    const port = (http.address() as AddressInfo).port;
    return { url: this.url, port };
  }

  async stop(): Promise<void> {
    for (const s of this.servers.values()) {
      s.destroyed = true;
      terminate(s);
      for (const d of s.downloads.values()) {
        d.abort.abort();
      }
    }
    this.servers.clear();
    const http = this.http;
    this.http = null;
    if (http) {
      // Stop listening first, then cut what is open; a connection accepted meanwhile, or a socket an
      // upgrade in progress still holds, is cut on the next round, until the server has closed.
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      const cut = () => {
        http.closeAllConnections();
        this.cutConnections();
      };
      cut();
      const rounds = setInterval(cut, 200);
      await closed;
      clearInterval(rounds);
    } else {
      this.cutConnections();
    }
    if (this.ownsDataDir && this.dataDir !== '') {
      await fsp.rm(this.dataDir, { recursive: true, force: true });
    }
  }

  /** Requests whose path starts with `prefix` (e.g. '/api/servers/<uuid>'). */
  requestsTo(prefix: string, method?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix) && (method === undefined || r.method === method));
  }

  /** Test hook: the network drops this server's open console sockets (no close frame); other servers' stay. */
  dropConsoles(uuid: string): number {
    let dropped = 0;
    for (const client of this.wss.clients) {
      if (consoleServerOf.get(client) === uuid) {
        client.terminate();
        dropped++;
      }
    }
    return dropped;
  }

  /** Test hook: the server's process dies (crash detection follows, as in Wings). */
  crash(uuid: string, exitCode = 1): void {
    const s = this.servers.get(uuid);
    if (s) {
      crashProcess(s, exitCode);
    }
  }

  // SimContext ------------------------------------------------------------------------------

  token(): string {
    return this.cfg.token;
  }

  panelUrl(): string {
    return this.cfg.panelUrl;
  }

  allowedOrigins(): string[] {
    return this.cfg.allowedOrigins;
  }

  uploadLimitMb(): number {
    return this.cfg.uploadLimitMb;
  }

  async createServer(uuid: string, config: PanelServerConfiguration): Promise<SimServer> {
    const old = this.servers.get(uuid);
    if (old) {
      old.destroyed = true;
      terminate(old);
      old.bus.emit('destroy');
    }
    const dir = path.join(this.volumesDir, uuid);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const s = new SimServer(uuid, config, dir, { panel: this.panel, timing: this.timing, appName: () => this.cfg.appName });
    installCrashHandler(s);
    this.servers.set(uuid, s);
    return s;
  }

  /**
   * What Wings does when it starts (docs/wings.md, boot order): reads `GET /api/remote/servers`
   * (page=0, which the panel answers as page 1, then pages 2 to last_page at once, 50 a page),
   * creates each server from its configuration, decoded as strictly as Wings decodes it, then tells
   * the panel every server's state is reset. Answers the uuids, in order.
   */
  async boot(perPage = 50): Promise<string[]> {
    const first = await this.panel.getServers(0, perPage);
    const rest = await Promise.all(Array.from({ length: Math.max(0, first.lastPage - 1) }, (_, i) => this.panel.getServers(i + 2, perPage)));
    const uuids: string[] = [];
    for (const item of [first, ...rest].flatMap((page) => page.data)) {
      const entry = asRecord(item);
      const uuid = typeof entry.uuid === 'string' ? entry.uuid : '';
      await this.createServer(uuid, parsePanelConfiguration(entry));
      uuids.push(uuid);
    }
    await this.panel.resetServersState();
    return uuids;
  }

  removeServer(s: SimServer): void {
    this.servers.delete(s.uuid);
    for (const d of s.downloads.values()) {
      d.abort.abort();
    }
    fsp.rm(s.fs.root, { recursive: true, force: true }).catch(() => undefined);
  }

  applyConfigUpdate(body: JsonRecord): boolean {
    this.lastConfigUpdate = body;
    if (this.cfg.ignorePanelConfigUpdates) {
      return false;
    }
    const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
    const api = asRecord(body.api);
    this.setConfiguration({
      token: str(body.token) ?? this.cfg.token,
      tokenId: str(body.token_id) ?? this.cfg.tokenId,
      panelUrl: str(body.remote) ?? this.cfg.panelUrl,
      appName: str(body.app_name) ?? this.cfg.appName,
      allowedOrigins: Array.isArray(body.allowed_origins) ? asStringArray(body.allowed_origins) : this.cfg.allowedOrigins,
      uploadLimitMb: typeof api.upload_limit === 'number' ? api.upload_limit : this.cfg.uploadLimitMb,
    });
    return true;
  }

  log(message: string): void {
    if (this.opts.logRequests) {
      console.log(`[wings-sim] ${message}`);
    }
  }

  // HTTP plumbing ---------------------------------------------------------------------------

  private track(socket: Socket | Duplex): void {
    if (this.faults.down) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** A hung node: the connection stays open and nothing is ever written to it. */
  private hold(socket: Socket | Duplex): void {
    this.held.add(socket);
    socket.on('close', () => this.held.delete(socket));
  }

  private releaseHeld(): void {
    for (const socket of this.held) {
      socket.destroy();
    }
    this.held.clear();
  }

  private cutConnections(): void {
    for (const client of this.wss.clients) {
      client.terminate();
    }
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  private record(req: IncomingMessage, url: URL): RecordedRequest {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k !== 'authorization' && v !== undefined) {
        headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
    }
    const entry: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      headers,
      time: new Date(),
      remotePort: req.socket.remotePort,
    };
    this.requests.push(entry);
    if (this.opts.logRequests) {
      console.log(`[wings-sim] ${entry.method} ${url.pathname}${url.search.replace(/token=[^&]+/, 'token=…')}`);
    }
    return entry;
  }

  private async preamble(req: IncomingMessage): Promise<{ url: URL; entry: RecordedRequest }> {
    const url = new URL(req.url ?? '/', 'http://wings.invalid');
    const entry = this.record(req, url);
    if (this.faults.slowMs) {
      await new Promise((r) => setTimeout(r, this.faults.slowMs));
    }
    return { url, entry };
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.faults.down) {
      req.socket.destroy();
      return;
    }
    if (this.faults.hang) {
      this.hold(req.socket);
      return;
    }
    const { url, entry } = await this.preamble(req);
    const requestId = randomUUID();
    const c = new RequestContext(req, res, url, requestId, () => this.faults.malformedJson === true);
    if (/json|text/.test(req.headers['content-type'] ?? '') && !(req.headers['content-type'] ?? '').includes('multipart')) {
      const body = await c.body().catch(() => Buffer.alloc(0));
      entry.body = body.toString('utf8');
    }
    res.setHeader('X-Request-Id', requestId);
    setCorsHeaders(req, res, this.cfg.panelUrl, this.cfg.allowedOrigins);
    if (req.method === 'OPTIONS') {
      c.empty(204);
      return;
    }
    if (this.faults.status500) {
      c.error(500, GENERIC_ERROR, true);
      return;
    }
    const match = this.routes.match(req.method ?? 'GET', url.pathname);
    if (!match) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    c.params = match.params;
    try {
      if (match.route.guard !== 'public') {
        this.authorize(req, res);
      }
      if (match.route.guard === 'server') {
        c.server = this.servers.get(match.params.server);
        if (!c.server) {
          throw new HttpError(404, 'The requested resource does not exist on this instance.');
        }
      }
      await match.route.handler(c);
    } catch (err) {
      const e = toHttpError(err);
      if (e.status >= 500) {
        this.log(`${req.method} ${url.pathname} → ${e.status}: ${err instanceof Error ? err.message : String(err)}`);
      }
      c.error(e.status, e.message, e.withRequestId);
    }
  }

  /** Wings' RequireAuthorization: the node token alone. */
  private authorize(req: IncomingMessage, res: ServerResponse): void {
    const result = checkBearer(req.headers.authorization, this.cfg.token);
    if (result === 'missing') {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new HttpError(401, 'The required authorization heads were not present in the request.');
    }
    if (result === 'forbidden') {
      throw new HttpError(403, 'You are not authorized to access this endpoint.');
    }
  }


}
