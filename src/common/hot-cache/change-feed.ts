import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client, Notification } from 'pg';
import { HotCaches } from 'src/common/hot-cache/hot-caches';
import { AppConfigService } from 'src/config/app-config.service';
import { errorMessage } from 'src/common/errors/error-message';

/** The channel the AddChangeNotifications trigger notifies, with `<table>:<id>` (`<table>:*` for a TRUNCATE). */
const CHANGES_CHANNEL = 'hatchery_changes';

interface ChangeFeedOptions {
  /** Waits between reconnection attempts; the last one repeats. */
  reconnectDelaysMs: readonly number[];
  /** How often the listening connection is checked with a query, and how long the answer may take. */
  heartbeatMs: number;
  heartbeatTimeoutMs: number;
}

export const CHANGE_FEED_OPTIONS = Symbol('CHANGE_FEED_OPTIONS');

// What a feed sends itself to prove that notifications reach it; every other process ignores it.
const PROBE = '~probe:';

export const DEFAULT_CHANGE_FEED_OPTIONS: ChangeFeedOptions = {
  reconnectDelaysMs: [100, 250, 500, 1_000, 2_000, 5_000],
  heartbeatMs: 10_000,
  heartbeatTimeoutMs: 5_000,
};

type ChangeFeedState = 'off' | 'connecting' | 'listening' | 'down';

/**
 * Hears the changes other panel processes (and raw SQL) make, on one dedicated PostgreSQL
 * connection that LISTENs on `hatchery_changes`, and drops what they make wrong from HotCaches.
 * Until that connection listens (and has heard a notification it sent itself), and whenever it
 * drops or misses a heartbeat, the caches are off (every request reads the database); they start
 * empty once it listens again. On the embedded
 * database, which one process holds, the TypeORM subscriber sees every write and this stays off.
 */
@Injectable()
export class ChangeFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChangeFeed.name);
  private readonly options: ChangeFeedOptions;
  private client: Client | null = null;
  private stopped = false;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private currentState: ChangeFeedState = 'off';
  private pid: number | null = null;
  private probes = 0;
  /** Probes in flight (a heartbeat's, callers of caughtUp), by payload. */
  private readonly awaitedProbes = new Map<string, () => void>();
  /** The last query sent on the listening connection (oneAtATime). */
  private lastQuery: Promise<unknown> = Promise.resolve();
  /** This process among those listening on the database: its probes carry it. */
  private readonly instance = randomUUID();
  /** Other panel processes heard on the channel (their heartbeats' probes), with when each was last heard. */
  private readonly peers = new Map<string, number>();
  private warnedAlone = false;

  constructor(
    private readonly config: AppConfigService,
    private readonly caches: HotCaches,
    @Inject(CHANGE_FEED_OPTIONS) options: Partial<ChangeFeedOptions>,
  ) {
    this.options = { ...DEFAULT_CHANGE_FEED_OPTIONS, ...options };
  }

  get state(): ChangeFeedState {
    return this.currentState;
  }

  /**
   * How many other panel processes listen on this database, heard within the last three heartbeats (each
   * process's heartbeat is a notification every listener receives).
   */
  otherProcesses(now = Date.now()): number {
    let heard = 0;
    for (const at of this.peers.values()) {
      heard += now - at <= 3 * this.options.heartbeatMs ? 1 : 0;
    }
    return heard;
  }

  /** The PostgreSQL backend of the listening connection, while it listens. */
  get backendPid(): number | null {
    return this.pid;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.db.kind !== 'postgres' || this.config.hotCache.ttlMs <= 0) {
      return;
    }
    // The first attempt is awaited, so a panel that can reach its database starts with its caches on.
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.heartbeatTimer);
    const client = this.client;
    this.client = null;
    this.pid = null;
    this.currentState = 'off';
    this.caches.setLive(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.config.db.kind !== 'postgres' || this.stopped) {
      return;
    }
    this.currentState = 'connecting';
    const client = new Client({
      // LISTEN holds its session: PostgreSQL itself, never a pooler in transaction mode.
      connectionString: this.config.db.directUrl,
      application_name: 'hatchery-changes',
      connectionTimeoutMillis: this.options.heartbeatTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    this.lastQuery = Promise.resolve(); // a query left on a lost connection holds up nothing on this one
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (n: Notification) => {
      if (this.client === client && n.channel === CHANGES_CHANNEL) {
        this.hear(n.payload);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await this.probe(client);
      if (this.client !== client) {
        return; // lost, or shut down, meanwhile
      }
      this.pid = rows[0].pid;
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.failures > 0) {
      this.logger.log('Change feed listening again: caches back on (emptied)');
    }
    this.failures = 0;
    this.currentState = 'listening';
    this.caches.setLive(true);
    this.scheduleHeartbeat(client);
  }

  /**
   * Resolves once every change committed before the call has been applied here (at once when not
   * listening): it sends this connection a probe and waits for it, and notifications arrive in
   * commit order. A process hears its own writes back a moment after they commit, so a test that
   * fills a cache right after a write and expects the next request to be served from it waits for
   * this first, or the late notification rightly drops what it just filled.
   */
  async caughtUp(): Promise<void> {
    const client = this.client;
    if (this.currentState === 'listening' && client) {
      await this.probe(client);
    }
  }

  /** `<table>:<id>`, or `<table>:*` when the rows are unknown. */
  private hear(payload: string | undefined): void {
    if (payload?.startsWith(PROBE)) {
      const mine = this.awaitedProbes.get(payload);
      if (mine) {
        mine();
      } else if (!payload.startsWith(`${PROBE}${this.instance}.`)) {
        this.heardPeer(payload.slice(PROBE.length).split('.')[0]);
      }
      return;
    }
    const colon = payload?.indexOf(':') ?? -1;
    if (!payload || colon <= 0) {
      this.logger.warn(`Unreadable change notification ${JSON.stringify(payload)}: emptying the caches`);
      this.caches.clear();
      return;
    }
    const id = payload.slice(colon + 1);
    this.caches.apply({ table: payload.slice(0, colon), op: 'unknown', id: id === '*' || id === '' ? undefined : id });
  }

  /** Another process's heartbeat: counted, and without REDIS_URL a warning, once, that limits are per process. */
  private heardPeer(instance: string): void {
    this.peers.set(instance, Date.now());
    if (this.peers.size > 100) {
      const oldest = [...this.peers].sort((x, y) => x[1] - y[1])[0][0];
      this.peers.delete(oldest);
    }
    if (!this.warnedAlone && this.config.rateLimit.redisUrl === undefined) {
      this.warnedAlone = true;
      this.logger.warn(
        'Another panel process uses this database, and REDIS_URL is not set: rate limits, SFTP attempts, node polls and live state are counted and asked per process. Set REDIS_URL (docs/production.md, several panel processes).',
      );
    }
  }

  private lost(client: Client, err: unknown): void {
    if (this.client !== client) {
      return; // a late event of a connection already given up
    }
    this.client = null;
    this.pid = null;
    clearTimeout(this.heartbeatTimer);
    this.caches.setLive(false);
    client.end().catch(() => undefined);
    if (this.stopped) {
      return;
    }
    this.currentState = 'down';
    const delays = this.options.reconnectDelaysMs;
    const delay = delays[Math.min(this.failures, delays.length - 1)] ?? 1_000;
    if (this.failures === 0) {
      this.logger.warn(`Change feed down (${errorMessage(err)}): caches off, every request reads the database; reconnecting`);
    }
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  /**
   * A connection can die without telling (a network partition), and one that answers queries may
   * still not be handed notifications (a transaction-mode pooler in between): every heartbeat
   * notifies this connection itself, and one not heard back in time is given up.
   */
  private scheduleHeartbeat(client: Client): void {
    this.heartbeatTimer = setTimeout(() => void this.beat(client), this.options.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private async beat(client: Client): Promise<void> {
    try {
      await this.probe(client);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.client === client) {
      this.scheduleHeartbeat(client);
    }
  }

  /**
   * Runs `query` once the listening connection's previous query has ended: a heartbeat and caughtUp, or two
   * caughtUp, probe at the same time. (pg queues a query sent while another runs, but warns that pg 9 will not.)
   */
  private oneAtATime<T>(query: () => Promise<T>): Promise<T> {
    const next = this.lastQuery.then(query);
    this.lastQuery = next.catch(() => undefined);
    return next;
  }

  /** Sends this connection a notification and waits until it comes back, or throws after heartbeatTimeoutMs. */
  private async probe(client: Client): Promise<void> {
    this.probes += 1;
    const payload = `${PROBE}${this.instance}.${this.probes}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.awaitedProbes.set(payload, resolve);
      timer = setTimeout(() => reject(new Error('a notification to itself did not come back')), this.options.heartbeatTimeoutMs);
    });
    try {
      await Promise.race([this.oneAtATime(() => client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload])).then(() => heard), heard]);
    } finally {
      clearTimeout(timer);
      this.awaitedProbes.delete(payload);
    }
  }
}
