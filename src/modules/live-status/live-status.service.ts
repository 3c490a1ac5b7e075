import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import type { AuthContext } from 'src/common/auth/auth-context';
import { AuthService, HeldCredential } from 'src/modules/auth/auth.service';
import type { DaemonNode, DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';
import { NodeListings } from 'src/modules/live-status/node-listings';
import { LiveServerResources, toServerResources } from 'src/modules/servers/dto/server-resources.dto';
import { ServerContextResolver } from 'src/modules/servers/server-context';
import type { ServerSnapshot } from 'src/modules/servers/server-context';
import { CLOSE_UNAUTHENTICATED, LiveStatusError } from 'src/modules/live-status/live-status.errors';

/** At most this many servers in one subscription. */
export const MAX_WATCHED = 100;

/**
 * Server lookups (each a cache read, or a database query on a miss) one socket's subscriptions may make: a bucket
 * of LOOKUP_BURST, refilled at LOOKUP_REFILL_PER_SECOND. Three full subscriptions at once, then one of 100 servers
 * every 20 s; servers the socket already watches cost nothing (every poll checks them again anyway).
 */
const LOOKUP_BURST = 300;
const LOOKUP_REFILL_PER_SECOND = 5;

class LookupBudget {
  private tokens = LOOKUP_BURST;
  private at = Date.now();

  /** Takes `n` lookups, or returns how many seconds until `n` are available (nothing taken). */
  take(n: number): { ok: true } | { ok: false; waitSeconds: number } {
    // Real time, like the pollers: it paces real database work.
    const now = Date.now();
    this.tokens = Math.min(LOOKUP_BURST, this.tokens + ((now - this.at) / 1000) * LOOKUP_REFILL_PER_SECOND);
    this.at = now;
    if (n <= this.tokens) {
      this.tokens -= n;
      return { ok: true };
    }
    return { ok: false, waitSeconds: Math.ceil((n - this.tokens) / LOOKUP_REFILL_PER_SECOND) };
  }
}

interface Watched {
  nodeId: string;
  /** The panel's flag, for a server its node does not list. */
  suspended: boolean;
}

/** One open socket: who it is, the credential to check again, and what it watches. */
interface Watcher {
  client: WebSocket;
  held: HeldCredential;
  auth: AuthContext;
  servers: Map<string, Watched>;
  /** Bumped by every subscribe, so an older one that finishes later does not win. */
  generation: number;
  closed: boolean;
  lookups: LookupBudget;
}

type Frame = { event: 'resources'; data: Record<string, LiveServerResources> } | { event: 'node-unreachable'; data: { nodeId: string; servers: string[]; code: string } };

const send = (watcher: Watcher, frame: unknown): void => {
  if (!watcher.closed && watcher.client.readyState === watcher.client.OPEN) {
    watcher.client.send(JSON.stringify(frame));
  }
};

const uuidsOn = (watcher: Watcher, nodeId: string): string[] => [...watcher.servers].filter(([, w]) => w.nodeId === nodeId).map(([uuid]) => uuid);

/**
 * The live-status feed (docs/api.md#live-status). Each node with at least one watched server has one
 * poller, which asks it for every server's state and usage in one call (Wings' `GET /api/servers`)
 * once per LIVE_STATUS_INTERVAL_MS and sends each watcher one frame for that node. Pollers are
 * independent (a node that hangs delays only its own frames, and only until its timeout), a node's
 * next poll never starts before its last one ended, and a node nobody watches is not asked.
 *
 * Access is checked when a server is subscribed and again on every poll of its node, together with
 * the credential: a signed-out session or revoked key closes the socket (4401), a server the caller
 * may no longer view leaves its subscription (a new `subscribed` frame says so), at the latest one
 * interval later.
 */
@Injectable()
export class LiveStatusService implements OnModuleDestroy {
  private readonly logger = new Logger(LiveStatusService.name);
  private readonly watchers = new Map<WebSocket, Watcher>();
  /** Open sockets per user id, for LIVE_STATUS_MAX_SOCKETS_PER_USER. */
  private readonly socketsByUser = new Map<string, number>();
  private readonly pollers = new Map<string, NodePoller>();

  constructor(
    private readonly listings: NodeListings,
    private readonly contexts: ServerContextResolver,
    private readonly auth: AuthService,
    private readonly config: AppConfigService,
  ) {}

  /**
   * Registers a socket just opened; false (and nothing registered) when its user already holds the most
   * LIVE_STATUS_MAX_SOCKETS_PER_USER allows, whichever sessions or keys opened them.
   */
  open(client: WebSocket, auth: AuthContext, held: HeldCredential): boolean {
    const userId = auth.user.id;
    const open = this.socketsByUser.get(userId) ?? 0;
    if (open >= this.config.liveStatus.maxSocketsPerUser) {
      return false;
    }
    this.socketsByUser.set(userId, open + 1);
    this.watchers.set(client, { client, auth, held, servers: new Map(), generation: 0, closed: false, lookups: new LookupBudget() });
    return true;
  }

  close(client: WebSocket): void {
    const watcher = this.watchers.get(client);
    if (!watcher) {
      return;
    }
    watcher.closed = true;
    watcher.generation += 1;
    this.watchers.delete(client);
    const userId = watcher.auth.user.id;
    const open = (this.socketsByUser.get(userId) ?? 1) - 1;
    if (open > 0) {
      this.socketsByUser.set(userId, open);
    } else {
      this.socketsByUser.delete(userId);
    }
    this.replace(watcher, new Map());
  }

  /**
   * Replaces what the socket watches with the servers of `refs` the caller may view; the others are
   * dropped as if they did not exist. Returns the uuids accepted, or null when a later subscribe (or
   * the socket's close) overtook this one. Servers the socket watches already are kept without a
   * lookup; the others are counted against its LookupBudget, and a subscribe over it is refused
   * (RATE_LIMITED) with the set left as it was.
   */
  async subscribe(client: WebSocket, refs: string[]): Promise<string[] | null> {
    const watcher = this.watchers.get(client);
    if (!watcher) {
      return null;
    }
    const unique = [...new Set(refs)];
    const kept = unique.filter((ref) => watcher.servers.has(ref));
    const fresh = unique.filter((ref) => !watcher.servers.has(ref));
    const budget = watcher.lookups.take(fresh.length);
    if (!budget.ok) {
      throw new AppException(LiveStatusError.LOOKUPS_EXHAUSTED, {
        message: `This connection has looked up too many servers; subscribe again in ${budget.waitSeconds} s`,
      });
    }
    const generation = ++watcher.generation;
    const resolved = await Promise.all(fresh.map((ref) => this.viewable(watcher.auth, ref)));
    if (watcher.generation !== generation || watcher.closed) {
      return null;
    }
    const next = new Map<string, Watched>();
    const nodes = new Map<string, DaemonNode>();
    for (const uuid of kept) {
      // Still watched: a poll since this subscribe began may have dropped it.
      const watched = watcher.servers.get(uuid);
      if (watched) {
        next.set(uuid, watched);
      }
    }
    for (const server of resolved) {
      if (server) {
        next.set(server.uuid, { nodeId: server.nodeId, suspended: server.suspended });
        nodes.set(server.nodeId, server.node);
      }
    }
    this.replace(watcher, next, nodes);
    return [...next.keys()];
  }

  /** The nodes being polled, for tests and diagnostics. */
  pollingNodes(): string[] {
    return [...this.pollers.keys()].sort();
  }

  /** Resolves once no poll is running (a test checking that nothing is asked waits for this). */
  async settled(): Promise<void> {
    let running = [...this.pollers.values()].map((p) => p.inFlight).filter((p) => p !== null);
    while (running.length > 0) {
      await Promise.all(running);
      running = [...this.pollers.values()].map((p) => p.inFlight).filter((p) => p !== null);
    }
  }

  onModuleDestroy(): void {
    for (const watcher of this.watchers.values()) {
      watcher.closed = true;
    }
    this.watchers.clear();
    for (const poller of this.pollers.values()) {
      poller.stop();
    }
    this.pollers.clear();
  }

  /** The server when the caller may view it, else null (unknown, not theirs, or a bad reference). */
  private async viewable(auth: AuthContext, ref: string): Promise<ServerSnapshot | null> {
    try {
      const access = await this.contexts.forCaller(auth, ref, 'server.view');
      return access.permissions.includes('server.view') ? access.server : null;
    } catch (e) {
      if (e instanceof AppException && e.status < 500) {
        return null;
      }
      throw e;
    }
  }

  /** Moves the watcher from the pollers of what it watched to those of `next`. */
  private replace(watcher: Watcher, next: Map<string, Watched>, nodes = new Map<string, DaemonNode>()): void {
    const before = new Set([...watcher.servers.values()].map((w) => w.nodeId));
    watcher.servers = next;
    const after = new Set([...next.values()].map((w) => w.nodeId));
    for (const nodeId of before) {
      if (!after.has(nodeId)) {
        this.pollers.get(nodeId)?.remove(watcher);
      }
    }
    for (const nodeId of after) {
      let poller = this.pollers.get(nodeId);
      const node = nodes.get(nodeId);
      if (!poller && node) {
        poller = new NodePoller(node, this.config.liveStatus.intervalMs, (p) => this.poll(p), (p) => this.retire(p));
        this.pollers.set(nodeId, poller);
      }
      if (poller && node) {
        poller.node = node;
      }
      poller?.add(watcher);
    }
  }

  private retire(poller: NodePoller): void {
    if (this.pollers.get(poller.node.id) === poller) {
      this.pollers.delete(poller.node.id);
    }
  }

  /** One poll of a node: its listing, and every watcher checked again, at the same time; then one frame each. */
  private async poll(poller: NodePoller): Promise<void> {
    const nodeId = poller.node.id;
    const [listing] = await Promise.all([
      this.listings.list(poller.node),
      ...[...poller.watchers].map((w) => this.recheck(w, poller)),
    ]);
    for (const watcher of poller.watchers) {
      const uuids = uuidsOn(watcher, nodeId);
      if (uuids.length === 0) {
        continue;
      }
      send(watcher, 'servers' in listing ? resourcesFrame(watcher, uuids, listing.servers) : unreachableFrame(nodeId, uuids, listing.code));
    }
  }

  /**
   * The watcher's credential and its access to the servers it watches on this node, checked again.
   * A credential that stopped working closes the socket; servers it may no longer view are dropped.
   */
  private async recheck(watcher: Watcher, poller: NodePoller): Promise<void> {
    const generation = watcher.generation;
    const uuids = uuidsOn(watcher, poller.node.id);
    try {
      const auth = await this.auth.recheck(watcher.held);
      if (!auth) {
        watcher.client.close(CLOSE_UNAUTHENTICATED, 'The session or API key is no longer valid');
        this.close(watcher.client);
        return;
      }
      watcher.auth = auth;
      const servers = await Promise.all(uuids.map((uuid) => this.viewable(auth, uuid)));
      if (watcher.generation !== generation || watcher.closed) {
        return;
      }
      const kept = new Map(watcher.servers);
      const nodes = new Map<string, DaemonNode>();
      servers.forEach((server, i) => {
        if (!server) {
          kept.delete(uuids[i]);
          return;
        }
        // A server moved to another node follows it; the node row is the latest the cache holds.
        kept.set(server.uuid, { nodeId: server.nodeId, suspended: server.suspended });
        nodes.set(server.nodeId, server.node);
      });
      const dropped = kept.size !== watcher.servers.size;
      const node = nodes.get(poller.node.id);
      if (node) {
        poller.node = node;
      }
      this.replace(watcher, kept, nodes);
      if (dropped) {
        send(watcher, { event: 'subscribed', data: { servers: [...kept.keys()] } });
      }
    } catch (err) {
      // The database did not answer: keep watching as before, and try again next poll.
      this.logger.warn({ err }, 'live status: could not check a watcher again');
    }
  }
}

const resourcesFrame = (watcher: Watcher, uuids: string[], listing: Map<string, DaemonServerDetails>): Frame => ({
  event: 'resources',
  data: Object.fromEntries(
    uuids.map((uuid) => {
      const details = listing.get(uuid);
      return [uuid, details ? toServerResources(details) : { currentState: 'missing', isSuspended: watcher.servers.get(uuid)?.suspended ?? false, resources: null }];
    }),
  ),
});

const unreachableFrame = (nodeId: string, servers: string[], code: string): Frame => ({ event: 'node-unreachable', data: { nodeId, servers, code } });

/**
 * One node's polling: a poll starts at most once per interval and never while the last one runs.
 * It starts as soon as the first watcher comes and stops when the last one leaves.
 */
class NodePoller {
  readonly watchers = new Set<Watcher>();
  inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastStart = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    public node: DaemonNode,
    private readonly intervalMs: number,
    private readonly pollOnce: (poller: NodePoller) => Promise<void>,
    private readonly onIdle: (poller: NodePoller) => void,
  ) {}

  add(watcher: Watcher): void {
    this.watchers.add(watcher);
    if (!this.inFlight && !this.timer) {
      this.schedule();
    }
  }

  remove(watcher: Watcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size === 0 && !this.inFlight) {
      this.stop();
      this.onIdle(this);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private schedule(): void {
    if (this.stopped) {
      return;
    }
    // Real time, not the injectable Clock: the interval paces calls to a real daemon.
    const delay = Math.max(0, this.lastStart + this.intervalMs - Date.now());
    this.timer = setTimeout(() => this.run(), delay);
  }

  private run(): void {
    this.timer = null;
    if (this.watchers.size === 0) {
      this.onIdle(this);
      return;
    }
    this.lastStart = Date.now();
    const poll = this.pollOnce(this).finally(() => {
      this.inFlight = null;
      if (this.watchers.size > 0) {
        this.schedule();
      } else {
        this.onIdle(this);
      }
    });
    this.inFlight = poll.catch(() => undefined);
  }
}
