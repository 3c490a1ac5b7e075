// The browser side of a server's console WebSocket (docs/wings.md#console-tokens): credentials from the
// panel, a socket straight to the node, the token renewed on the same socket, reconnects that keep
// what the page shows, and a named reason when the node cannot be reached. No React, no DOM: the
// socket, the clock and the credentials come in, typed events go out, so Vitest drives it with fakes.

import type { ResponseOf } from '@/lib/api/types';
import type { BrowserSocket } from '@/lib/browser-socket';

/** What the client needs of a WebSocket (openBrowserSocket's fits). */
export type SocketLike = Omit<BrowserSocket, 'readyState'>;

type SocketFactory = (url: string) => SocketLike;

/** `GET /api/client/servers/{id}/websocket`'s `data`. */
export type ConsoleCredentials = ResponseOf<'/api/client/servers/{server}/websocket'>['data'];

/** Fetches fresh credentials; throws an error with `status` and `code` (the panel's error shape) on a non-2xx answer. */
type CredentialsFetcher = () => Promise<ConsoleCredentials>;

interface ConsoleTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface ConsoleClientOptions {
  fetchCredentials: CredentialsFetcher;
  createSocket: SocketFactory;
  timers?: ConsoleTimers;
  /** 0 ≤ x < 1, for the backoff jitter. */
  random?: () => number;
  /** The page's protocol (`https:` pages cannot open `ws:` sockets: mixed content). */
  pageProtocol?: string;
  /** False while the browser is offline: reconnects wait without counting. */
  isOnline?: () => boolean;
  /** Reconnect attempts in a row before giving up with the diagnosis. */
  maxAttempts?: number;
  /** A socket not authenticated this long after it was created is given up and tried again. */
  connectTimeoutMs?: number;
}

/** Why the console is not connected, in terms the page can explain. */
export type ConsoleDiagnosis =
  | { kind: 'mixed-content'; socket: string }
  | { kind: 'node-down' }
  | { kind: 'unavailable'; message: string; diagnostics: Record<string, unknown> }
  | { kind: 'unreachable'; socket: string }
  | { kind: 'connection-lost' }
  | { kind: 'access-removed' }
  | { kind: 'suspended' }
  /** The server is moving to another node (409 SERVER_TRANSFERRING): its console opens again once it is over. */
  | { kind: 'transferring' }
  | { kind: 'token-rejected'; message: string }
  | { kind: 'panel-error'; error: unknown };

export type ConsoleState =
  | { phase: 'idle' }
  | { phase: 'connecting'; attempt: number }
  | { phase: 'connected' }
  /** Waiting `delayMs` before attempt number `attempt`; `diagnosis` when the last failure says why. */
  | { phase: 'reconnecting'; attempt: number; delayMs: number; diagnosis?: ConsoleDiagnosis }
  /** Gave up (or cannot try): Retry starts over. */
  | { phase: 'failed'; diagnosis: ConsoleDiagnosis }
  | { phase: 'deleted' }
  | { phase: 'closed' };

/** One `stats` event (Wings' utilization, args[0] as JSON). */
export interface ConsoleStats {
  memoryBytes: number;
  memoryLimitBytes: number;
  /** 100 = one core. */
  cpuAbsolute: number;
  networkRxBytes: number;
  networkTxBytes: number;
  uptimeMs: number;
  diskBytes: number;
  state: string;
}

export type ConsoleEvent =
  | { type: 'state'; state: ConsoleState }
  | { type: 'status'; status: string }
  | { type: 'stats'; stats: ConsoleStats }
  | { type: 'output'; line: string; source: 'console' | 'install' | 'daemon' }
  | { type: 'daemon-error'; message: string }
  | { type: 'install'; phase: 'started' | 'completed' }
  /** A new socket is authenticated after a lost one: the page draws its separator before the replayed logs. */
  | { type: 'reconnected' }
  | { type: 'token-refreshed' }
  | { type: 'event'; event: string; args: string[] };

type Listener = (event: ConsoleEvent) => void;

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 20_000;
/** Jitter takes up to this share off a delay, so tabs that lost the same node do not return in step. */
const JITTER = 0.25;
/** Tokens are renewed this long before they expire (at most half their life). */
const REFRESH_LEAD_MS = 90_000;
/** A reconnect fetches a new token first when the one it holds has less than this left. */
const MIN_TOKEN_LEFT_MS = 60_000;
/** A failed renewal is tried again after this long, while the current token still works. */
const REFRESH_RETRY_MS = 5_000;
/** Forced renewals (`jwt error` on exp/denylist) in a row without any event between them before giving up. */
const MAX_FORCED_REFRESHES = 3;
const DEFAULT_MAX_ATTEMPTS = 20;
/**
 * A hung node (or a firewall that drops packets) leaves a browser socket connecting for minutes: give
 * an attempt this long to open and authenticate (twice the panel's default live-status timeout), then
 * count it as failed and try again, so the page neither waits on it nor stays on "Connecting".
 */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The Wings `jwt error` texts a fresh token cures: expired, or issued before the daemon restarted. */
const RENEWABLE_JWT_ERRORS = ['exp claim is invalid', 'created too far in past (denylist)'];

/** The delay before reconnect attempt `attempt` (1-based): 1 s doubling to 20 s, minus up to 25 % jitter. */
export const backoffDelay = (attempt: number, random: () => number): number => {
  const full = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (1 - JITTER * random()));
};

/** `exp` and `iat` (seconds) from a JWT's payload; not verified, the node does that. */
export const tokenTimes = (token: string): { exp: number; iat: number } | null => {
  const part = token.split('.')[1];
  if (!part) {
    return null;
  }
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const payload = JSON.parse(json) as { exp?: unknown; iat?: unknown };
    if (typeof payload.exp !== 'number') {
      return null;
    }
    return { exp: payload.exp, iat: typeof payload.iat === 'number' ? payload.iat : payload.exp - 900 };
  } catch {
    return null;
  }
};

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A `stats` payload (JSON text) as numbers; null when it is not JSON of an object. */
export const parseStats = (raw: string | undefined): ConsoleStats | null => {
  if (raw === undefined) {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) {
    return null;
  }
  const s = parsed as Record<string, unknown>;
  const network = (typeof s.network === 'object' && s.network !== null ? s.network : {}) as Record<string, unknown>;
  return {
    memoryBytes: num(s.memory_bytes),
    memoryLimitBytes: num(s.memory_limit_bytes),
    cpuAbsolute: num(s.cpu_absolute),
    networkRxBytes: num(network.rx_bytes),
    networkTxBytes: num(network.tx_bytes),
    uptimeMs: num(s.uptime),
    diskBytes: num(s.disk_bytes),
    state: typeof s.state === 'string' ? s.state : '',
  };
};

/** Wings prefixes errors with `Error Event [<uuid>]: `; the uuid means nothing to a reader. */
const stripErrorPrefix = (text: string): string => text.replace(/^Error Event \[[^\]]*\]:\s*/, '');

const stripNewline = (line: string): string => line.replace(/\r?\n$/, '');

const errorStatus = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

const errorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const defaultTimers: ConsoleTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A timer that runs its callback once; arming it again replaces the run still pending. */
class OneShot {
  private handle: unknown = null;

  constructor(private readonly timers: ConsoleTimers) {}

  arm(delayMs: number, fn: () => void): void {
    this.cancel();
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      fn();
    }, delayMs);
  }

  cancel(): void {
    if (this.handle !== null) {
      this.timers.clearTimeout(this.handle);
      this.handle = null;
    }
  }
}

interface HeldToken {
  token: string;
  socket: string;
  /** Local time it was received and its lifetime: measured on our clock, so clock skew with the panel does not matter. */
  receivedAt: number;
  lifetimeMs: number;
}

/** One server's console connection. `start()` connects, `close()` stops for good; events arrive through `on()`. */
export class ConsoleClient {
  private readonly listeners = new Set<Listener>();
  private readonly timers: ConsoleTimers;
  private readonly random: () => number;
  private readonly maxAttempts: number;
  private current: ConsoleState = { phase: 'idle' };
  private socket: SocketLike | null = null;
  private held: HeldToken | null = null;
  /** Failed attempts in a row; 0 once a socket authenticates. */
  private attempt = 0;
  private readonly reconnectTimer: OneShot;
  private readonly refreshTimer: OneShot;
  private readonly connectTimer: OneShot;
  private readonly connectTimeoutMs: number;
  private refreshing: Promise<void> | null = null;
  private forcedRefreshes = 0;
  /** True once any socket of this client authenticated: later ones are reconnects. */
  private everConnected = false;
  /** Bumped on every new connection and on close(): late callbacks of an older one are ignored. */
  private generation = 0;
  private lastStatus: string | null = null;
  private lastStats: ConsoleStats | null = null;

  constructor(private readonly options: ConsoleClientOptions) {
    this.timers = options.timers ?? defaultTimers;
    this.reconnectTimer = new OneShot(this.timers);
    this.refreshTimer = new OneShot(this.timers);
    this.connectTimer = new OneShot(this.timers);
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  get state(): ConsoleState {
    return this.current;
  }

  /** The last server status seen; kept across reconnects. */
  get status(): string | null {
    return this.lastStatus;
  }

  /** The last stats sample seen; kept across reconnects. */
  get stats(): ConsoleStats | null {
    return this.lastStats;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.current.phase !== 'idle') {
      return;
    }
    void this.connect();
  }

  /** Starts over after a failure (or skips the wait of a pending reconnect). */
  retry(): void {
    if (this.current.phase !== 'failed' && this.current.phase !== 'reconnecting') {
      return;
    }
    this.reconnectTimer.cancel();
    this.attempt = 0;
    void this.connect();
  }

  /** Sends a console command; false when not connected (Wings would drop it). */
  sendCommand(command: string): boolean {
    return this.sendFrame('send command', [command]);
  }

  /** Asks for a stats sample now instead of waiting for the next one. */
  requestStats(): boolean {
    return this.sendFrame('send stats');
  }

  /** Leaves for good: no reconnect, no renewal. */
  close(): void {
    this.generation++;
    this.reconnectTimer.cancel();
    this.refreshTimer.cancel();
    this.dropSocket(1000, 'closed by the page');
    if (this.current.phase !== 'deleted') {
      this.setState({ phase: 'closed' });
    }
  }

  private emit(event: ConsoleEvent): void {
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }

  private setState(state: ConsoleState): void {
    this.current = state;
    this.emit({ type: 'state', state });
  }

  private isOver(): boolean {
    return this.current.phase === 'closed' || this.current.phase === 'deleted';
  }

  private sendFrame(event: string, args?: string[]): boolean {
    if (this.current.phase !== 'connected' || !this.socket) {
      return false;
    }
    this.socket.send(JSON.stringify(args ? { event, args } : { event }));
    return true;
  }

  private tokenLeftMs(): number {
    if (!this.held) {
      return 0;
    }
    return this.held.receivedAt + this.held.lifetimeMs - this.timers.now();
  }

  /** Fetches credentials; on success holds them and schedules the next renewal. */
  private async fetchToken(): Promise<{ ok: true } | { ok: false; diagnosis: ConsoleDiagnosis; final: boolean }> {
    let credentials: ConsoleCredentials;
    try {
      credentials = await this.options.fetchCredentials();
    } catch (error) {
      const status = errorStatus(error);
      if (status === 403 || status === 404) {
        return { ok: false, diagnosis: { kind: 'access-removed' }, final: true };
      }
      if (status === 409 && errorCode(error) === 'SERVER_TRANSFERRING') {
        return { ok: false, diagnosis: { kind: 'transferring' }, final: true };
      }
      if (status === 409) {
        return { ok: false, diagnosis: { kind: 'suspended' }, final: true };
      }
      if (status === 502 || status === 503 || status === 504) {
        return { ok: false, diagnosis: { kind: 'node-down' }, final: false };
      }
      return { ok: false, diagnosis: { kind: 'panel-error', error }, final: false };
    }
    if ('unavailable' in credentials) {
      return { ok: false, diagnosis: { kind: 'unavailable', message: credentials.message, diagnostics: credentials.diagnostics }, final: true };
    }
    const times = tokenTimes(credentials.token);
    const lifetimeMs = times ? Math.max(1, times.exp - times.iat) * 1000 : 900_000;
    this.held = { token: credentials.token, socket: credentials.socket, receivedAt: this.timers.now(), lifetimeMs };
    this.scheduleRefresh();
    return { ok: true };
  }

  private scheduleRefresh(): void {
    this.refreshTimer.cancel();
    if (!this.held) {
      return;
    }
    const lead = Math.min(REFRESH_LEAD_MS, this.held.lifetimeMs / 2);
    const delay = Math.max(0, this.tokenLeftMs() - lead);
    this.refreshTimer.arm(delay, () => void this.refresh());
  }

  /**
   * A new token, sent as `auth` on the socket already open (Wings answers `auth success` and keeps
   * streaming; the logs are not asked for again). One renewal at a time: callers share it.
   */
  private refresh(): Promise<void> {
    if (this.refreshing) {
      return this.refreshing;
    }
    const generation = this.generation;
    this.refreshing = (async () => {
      const result = await this.fetchToken();
      if (generation !== this.generation || this.isOver()) {
        return;
      }
      if (!result.ok) {
        if (result.final) {
          this.fail(result.diagnosis);
        } else {
          this.refreshTimer.arm(REFRESH_RETRY_MS, () => void this.refresh());
        }
        return;
      }
      if (this.socket && this.held && (this.current.phase === 'connected' || this.socketAuthPending)) {
        this.socket.send(JSON.stringify({ event: 'auth', args: [this.held.token] }));
        this.refreshAcks++;
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** `auth success` answers still expected for renewals sent on the open socket. */
  private refreshAcks = 0;
  /** The open socket sent its first `auth` and waits for the answer. */
  private socketAuthPending = false;

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.dropSocket(1000, 'reconnecting');
    this.setState({ phase: 'connecting', attempt: this.attempt + 1 });
    if (!this.held || this.tokenLeftMs() < MIN_TOKEN_LEFT_MS) {
      const result = await (this.refreshing ?? Promise.resolve()).then(() =>
        this.held && this.tokenLeftMs() >= MIN_TOKEN_LEFT_MS ? ({ ok: true } as const) : this.fetchToken(),
      );
      if (generation !== this.generation || this.isOver()) {
        return;
      }
      if (!result.ok) {
        if (result.final) {
          this.fail(result.diagnosis);
        } else {
          this.scheduleReconnect(result.diagnosis);
        }
        return;
      }
    }
    const held = this.held!;
    if (this.options.pageProtocol === 'https:' && held.socket.startsWith('ws:')) {
      this.fail({ kind: 'mixed-content', socket: held.socket });
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(held.socket);
    } catch {
      // The browser refuses the URL outright (malformed, or blocked as insecure).
      this.fail({ kind: 'unreachable', socket: held.socket });
      return;
    }
    this.socket = socket;
    this.socketAuthPending = false;
    this.refreshAcks = 0;
    let opened = false;
    this.connectTimer.arm(this.connectTimeoutMs, () => {
      if (generation !== this.generation || this.socket !== socket) {
        return;
      }
      // Opened but never answered the auth: the node hangs. Never opened: it or the way to it.
      this.dropSocket(1000, 'no answer');
      this.scheduleReconnect(opened ? { kind: 'node-down' } : { kind: 'unreachable', socket: held.socket });
    });
    socket.onopen = () => {
      if (generation !== this.generation) {
        return;
      }
      opened = true;
      this.socketAuthPending = true;
      socket.send(JSON.stringify({ event: 'auth', args: [this.held!.token] }));
    };
    socket.onmessage = (ev) => {
      if (generation === this.generation && typeof ev.data === 'string') {
        this.onFrame(ev.data);
      }
    };
    socket.onerror = () => undefined;
    socket.onclose = (ev) => {
      if (generation !== this.generation) {
        return;
      }
      this.socket = null;
      this.socketAuthPending = false;
      this.connectTimer.cancel();
      this.onClosed(ev.code, ev.reason, opened, held.socket);
    };
  }

  private onClosed(code: number, reason: string, opened: boolean, url: string): void {
    if (this.isOver() || this.current.phase === 'failed') {
      return;
    }
    if (code === 1001 && /server deleted/i.test(reason)) {
      this.toDeleted();
      return;
    }
    // Newer Wings close with these when the server is suspended.
    if (code === 4400 || code === 4409) {
      this.fail({ kind: 'suspended' });
      return;
    }
    this.scheduleReconnect(opened ? { kind: 'connection-lost' } : { kind: 'unreachable', socket: url });
  }

  private scheduleReconnect(diagnosis: ConsoleDiagnosis): void {
    this.reconnectTimer.cancel();
    if (this.options.isOnline && !this.options.isOnline()) {
      // Offline: look again later without spending an attempt.
      const delayMs = backoffDelay(Math.max(1, this.attempt), this.random);
      this.setState({ phase: 'reconnecting', attempt: this.attempt + 1, delayMs, diagnosis });
      this.reconnectTimer.arm(delayMs, () => this.scheduleReconnect(diagnosis));
      return;
    }
    this.attempt++;
    if (this.attempt > this.maxAttempts) {
      this.fail(diagnosis);
      return;
    }
    const delayMs = backoffDelay(this.attempt, this.random);
    this.setState({ phase: 'reconnecting', attempt: this.attempt, delayMs, diagnosis: diagnosis.kind === 'connection-lost' ? undefined : diagnosis });
    this.reconnectTimer.arm(delayMs, () => void this.connect());
  }

  private fail(diagnosis: ConsoleDiagnosis): void {
    this.generation++;
    this.reconnectTimer.cancel();
    this.refreshTimer.cancel();
    this.dropSocket(1000, 'giving up');
    this.setState({ phase: 'failed', diagnosis });
  }

  private toDeleted(): void {
    this.generation++;
    this.reconnectTimer.cancel();
    this.refreshTimer.cancel();
    this.dropSocket(1000, 'server deleted');
    this.setState({ phase: 'deleted' });
  }

  private dropSocket(code: number, reason: string): void {
    this.connectTimer.cancel();
    const socket = this.socket;
    this.socket = null;
    this.socketAuthPending = false;
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      socket.onerror = null;
      try {
        socket.close(code, reason);
      } catch {
        // Already closing: nothing to do.
      }
    }
  }

  private onFrame(data: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null || typeof (frame as { event?: unknown }).event !== 'string') {
      return;
    }
    const event = (frame as { event: string }).event;
    const rawArgs = (frame as { args?: unknown }).args;
    const args = Array.isArray(rawArgs) ? rawArgs.filter((a): a is string => typeof a === 'string') : [];
    if (event !== 'jwt error' && event !== 'auth success') {
      this.forcedRefreshes = 0;
    }
    switch (event) {
      case 'auth success':
        this.onAuthSuccess();
        return;
      case 'status':
        if (args[0] !== undefined) {
          this.lastStatus = args[0];
          this.emit({ type: 'status', status: args[0] });
        }
        return;
      case 'stats': {
        const stats = parseStats(args[0]);
        if (stats) {
          this.lastStats = stats;
          this.emit({ type: 'stats', stats });
        }
        return;
      }
      case 'console output':
        this.emit({ type: 'output', line: stripNewline(args.join('')), source: 'console' });
        return;
      case 'install output':
        this.emit({ type: 'output', line: stripNewline(args.join('')), source: 'install' });
        return;
      case 'daemon message':
        this.emit({ type: 'output', line: stripNewline(args.join('')), source: 'daemon' });
        return;
      case 'install started':
        this.emit({ type: 'install', phase: 'started' });
        return;
      case 'install completed':
        this.emit({ type: 'install', phase: 'completed' });
        return;
      case 'daemon error':
        this.emit({ type: 'daemon-error', message: stripErrorPrefix(args.join('')) });
        return;
      case 'token expiring':
        this.onTokenExpiring();
        return;
      case 'token expired':
        void this.refresh();
        return;
      case 'jwt error':
        this.onJwtError(stripErrorPrefix(args.join('')));
        return;
      case 'deleted':
        this.toDeleted();
        return;
      default:
        this.emit({ type: 'event', event, args });
    }
  }

  private onAuthSuccess(): void {
    if (this.socketAuthPending) {
      this.socketAuthPending = false;
      this.connectTimer.cancel();
      // A renewal that raced the first auth is answered here too.
      this.refreshAcks = 0;
      const reconnected = this.everConnected;
      this.everConnected = true;
      this.attempt = 0;
      this.setState({ phase: 'connected' });
      if (reconnected) {
        this.emit({ type: 'reconnected' });
      }
      // Once per socket: Wings replays the recent lines (a reconnect may show a few twice).
      this.socket?.send(JSON.stringify({ event: 'send logs' }));
      this.socket?.send(JSON.stringify({ event: 'send stats' }));
      return;
    }
    if (this.refreshAcks > 0) {
      this.refreshAcks--;
      this.emit({ type: 'token-refreshed' });
    }
  }

  /**
   * Wings says this every check while ≤ 60 s are left on the token it holds, which may be one
   * already replaced: renew unless the token we hold is younger than the smaller of 60 s and half its life.
   */
  private onTokenExpiring(): void {
    if (!this.held) {
      return;
    }
    const age = this.timers.now() - this.held.receivedAt;
    if (age >= Math.min(60_000, this.held.lifetimeMs / 2)) {
      void this.refresh();
    }
  }

  private onJwtError(message: string): void {
    if (RENEWABLE_JWT_ERRORS.some((text) => message.includes(text))) {
      this.forcedRefreshes++;
      if (this.forcedRefreshes > MAX_FORCED_REFRESHES) {
        this.fail({ kind: 'token-rejected', message });
        return;
      }
      void this.refresh();
      return;
    }
    // Missing connect permission, another server's token...: a new token would say the same.
    this.fail({ kind: 'access-removed' });
  }
}
