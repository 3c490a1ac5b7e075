// The browser side of the panel's live-status WebSocket (`/api/ws`): frames carry, per server, the
// object GET /api/client/servers/{server}/resources answers in `data` (docs/api.md). Pure: no React,
// and the socket is injected so the tests drive a fake one.

import type { components } from '@/api/schema';
import { type BrowserSocket, openBrowserSocket } from '@/lib/browser-socket';

/** What `resources` frames carry for one server: the `resources` of the panel's resources route. */
export type LiveResources = components['schemas']['ResourceUsageDto'];

/** One server's live state as the dashboard knows it. */
export type LiveServerState =
  | { kind: 'live'; currentState: string; isSuspended: boolean; resources: LiveResources | null }
  | { kind: 'unreachable'; nodeId: string; code: string };

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'denied';

export interface LiveSnapshot {
  connection: ConnectionState;
  /** The uuids the panel accepted in its last `subscribed` answer (null until it answers). */
  accepted: ReadonlySet<string> | null;
  servers: ReadonlyMap<string, LiveServerState>;
}

/** The part of the browser's WebSocket this client uses. */
export type SocketLike = BrowserSocket;

type LiveFrame =
  | { event: 'resources'; data: Record<string, { currentState: string; isSuspended: boolean; resources: LiveResources | null }> }
  | { event: 'node-unreachable'; data: { nodeId: string; servers: string[]; code: string } }
  | { event: 'subscribed'; data: { servers: string[] } }
  | { event: 'error'; data: { code: string; message: string } };

const OPEN = 1;
/** The panel closes with these when the credential is missing or refused: retrying cannot help. */
const DENIED_CLOSE_CODES = new Set([4401, 4403]);
/** The contract's cap on one subscription. */
export const MAX_SUBSCRIBED = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

const parseResources = (value: unknown): LiveResources | null =>
  isRecord(value)
    ? {
        memoryBytes: num(value.memoryBytes),
        memoryLimitBytes: num(value.memoryLimitBytes),
        cpuAbsolute: num(value.cpuAbsolute),
        diskBytes: num(value.diskBytes),
        networkRxBytes: num(value.networkRxBytes),
        networkTxBytes: num(value.networkTxBytes),
        uptime: num(value.uptime),
      }
    : null;

/** A frame from the panel, or null for anything that is not one this client understands. */
export const parseFrame = (raw: unknown): LiveFrame | null => {
  if (typeof raw !== 'string') {
    return null;
  }
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(message) || typeof message.event !== 'string') {
    return null;
  }
  const { event, data } = message;
  switch (event) {
    case 'resources': {
      if (!isRecord(data)) {
        return null;
      }
      const out: Extract<LiveFrame, { event: 'resources' }>['data'] = {};
      for (const [uuid, entry] of Object.entries(data)) {
        if (isRecord(entry) && typeof entry.currentState === 'string') {
          out[uuid] = { currentState: entry.currentState, isSuspended: entry.isSuspended === true, resources: parseResources(entry.resources) };
        }
      }
      return { event, data: out };
    }
    case 'node-unreachable':
      return isRecord(data) && isStringArray(data.servers) && (typeof data.nodeId === 'string' || typeof data.nodeId === 'number')
        ? { event, data: { nodeId: String(data.nodeId), servers: data.servers, code: typeof data.code === 'string' ? data.code : 'DAEMON_UNAVAILABLE' } }
        : null;
    case 'subscribed':
      return isRecord(data) && isStringArray(data.servers) ? { event, data: { servers: data.servers } } : null;
    case 'error':
      return isRecord(data) ? { event, data: { code: typeof data.code === 'string' ? data.code : 'ERROR', message: typeof data.message === 'string' ? data.message : '' } } : null;
    default:
      return null;
  }
};

/** The per-server map after one frame; untouched servers keep their entry (and the map its identity when nothing changed). */
export const applyFrame = (servers: ReadonlyMap<string, LiveServerState>, frame: LiveFrame): ReadonlyMap<string, LiveServerState> => {
  if (frame.event === 'resources') {
    const next = new Map(servers);
    for (const [uuid, entry] of Object.entries(frame.data)) {
      next.set(uuid, { kind: 'live', ...entry });
    }
    return next;
  }
  if (frame.event === 'node-unreachable') {
    const next = new Map(servers);
    for (const uuid of frame.data.servers) {
      next.set(uuid, { kind: 'unreachable', nodeId: frame.data.nodeId, code: frame.data.code });
    }
    return next;
  }
  return servers;
};

/** Delay before reconnect attempt `attempt` (0-based): doubling from `initialMs` up to `maxMs`, with up to 20 % jitter so tabs do not reconnect in step. */
export const backoffDelay = (attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number => {
  const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.8 + 0.2 * random()));
};

/** `ws(s)://<this origin>/api/ws`: same origin, so the session cookie goes along. */
export const liveStatusUrl = (location: { protocol: string; host: string }): string =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;

interface LiveStatusOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
}

/**
 * One connection to `/api/ws`: keeps the wanted subscription (sent again after every reconnect),
 * reconnects with backoff, and folds frames into a per-server state map. `getSnapshot` returns the
 * same object until something changes, as React's useSyncExternalStore needs.
 */
export class LiveStatusClient {
  private socket: SocketLike | null = null;
  private wanted: string[] = [];
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private readonly listeners = new Set<() => void>();
  private snapshot: LiveSnapshot = { connection: 'idle', accepted: null, servers: new Map() };
  private readonly createSocket: (url: string) => SocketLike;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly random: () => number;

  constructor(private readonly options: LiveStatusOptions) {
    this.createSocket = options.createSocket ?? openBrowserSocket;
    this.initialBackoffMs = options.initialBackoffMs ?? 1_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.random = options.random ?? Math.random;
  }

  getSnapshot = (): LiveSnapshot => this.snapshot;

  subscribeStore = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    this.clearTimer();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      socket.close(1000, 'done');
    }
    this.update({ connection: 'idle' });
  }

  /** Replaces the watched set (the first MAX_SUBSCRIBED uuids); states of servers no longer watched are dropped. */
  subscribe(uuids: readonly string[]): void {
    const next = [...new Set(uuids)].slice(0, MAX_SUBSCRIBED);
    if (next.length === this.wanted.length && next.every((u, i) => u === this.wanted[i])) {
      return;
    }
    this.wanted = next;
    const keep = new Set(next);
    const servers = new Map([...this.snapshot.servers].filter(([uuid]) => keep.has(uuid)));
    this.update({ servers, accepted: null });
    this.sendSubscription();
  }

  private connect(): void {
    this.clearTimer();
    this.update({ connection: this.attempt === 0 ? 'connecting' : 'reconnecting' });
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.update({ connection: 'open' });
      this.sendSubscription();
    };
    socket.onmessage = (event) => {
      const frame = parseFrame(event.data);
      if (!frame) {
        return;
      }
      if (frame.event === 'subscribed') {
        this.update({ accepted: new Set(frame.data.servers) });
        return;
      }
      const servers = applyFrame(this.snapshot.servers, frame);
      if (servers !== this.snapshot.servers) {
        // Only servers still watched: a late frame for the previous page must not bring them back.
        const keep = new Set(this.wanted);
        this.update({ servers: new Map([...servers].filter(([uuid]) => keep.has(uuid))) });
      }
    };
    socket.onerror = () => undefined; // a close follows, which decides what to do
    socket.onclose = (event) => {
      if (this.socket !== socket) {
        return;
      }
      this.detach(socket);
      this.socket = null;
      if (!this.running) {
        return;
      }
      if (DENIED_CLOSE_CODES.has(event.code)) {
        this.running = false;
        this.update({ connection: 'denied' });
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.initialBackoffMs, this.maxBackoffMs, this.random);
    this.attempt += 1;
    this.update({ connection: 'reconnecting' });
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) {
        this.connect();
      }
    }, delay);
  }

  private sendSubscription(): void {
    if (this.socket && this.socket.readyState === OPEN) {
      this.socket.send(JSON.stringify({ event: 'subscribe', data: { servers: this.wanted } }));
    }
  }

  private detach(socket: SocketLike): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private update(patch: Partial<LiveSnapshot>): void {
    const next = { ...this.snapshot, ...patch };
    if (next.connection === this.snapshot.connection && next.accepted === this.snapshot.accepted && next.servers === this.snapshot.servers) {
      return;
    }
    this.snapshot = next;
    for (const listener of this.listeners) {
      listener();
    }
  }
}
