import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppException } from 'src/common/errors/app.exception';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway, DaemonNode, DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';

/** One poll of a node: its servers' state and usage by uuid, or the error code of a failed call. */
type NodeListing = { servers: Map<string, DaemonServerDetails> } | { code: string };

/** A listing as it travels between processes: only what the live-status frames read. */
interface SharedListing {
  /** The lease it was asked under. */
  lease: string;
  servers?: [string, DaemonServerDetails][];
  code?: string;
}

const LEASE = 'hatchery:poll:lease:';
const RESULT = 'hatchery:poll:result:';

/** Takes the lease when free (resolves null) or returns the holder's lease. */
const TAKE_LEASE = `local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

const ask = async (daemon: DaemonGateway, node: DaemonNode, timeoutMs: number): Promise<NodeListing> =>
  daemon.listServers(node, timeoutMs).then(
    (servers) => ({ servers }),
    (e: unknown) => ({ code: e instanceof AppException ? e.code : 'DAEMON_ERROR' }),
  );

const encode = (lease: string, listing: NodeListing): string =>
  JSON.stringify(
    'servers' in listing
      ? { lease, servers: [...listing.servers].map(([uuid, d]) => [uuid, { state: d.state, is_suspended: d.is_suspended, utilization: d.utilization }]) }
      : { lease, code: listing.code },
  );

const decode = (shared: SharedListing): NodeListing => (shared.servers ? { servers: new Map(shared.servers) } : { code: shared.code ?? 'DAEMON_ERROR' });

/**
 * The live-status pollers' call to a node (Wings' `GET /api/servers`), once per interval for the whole
 * fleet. Without REDIS_URL (one process) each poll asks the node. With it, a poll first takes the node's
 * lease in Redis for the interval: the process that gets it asks the node and shares the answer (kept in
 * Redis for the interval, and published); every other process's poll in that interval takes that answer
 * instead of asking. A process waits for the holder's answer at most the node's timeout and a second,
 * then asks itself (a holder that died mid-poll costs one interval a second call, never a missing frame);
 * when Redis does not answer, each process asks as if alone.
 */
@Injectable()
export class NodeListings implements OnApplicationShutdown {
  private readonly logger = new Logger(NodeListings.name);
  private connection?: Promise<{ client: Redis; subscriber: Redis }>;
  /** Polls of this process waiting for another's answer, by lease. */
  private readonly waiting = new Map<string, Set<(listing: NodeListing) => void>>();
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly daemon: DaemonGateway,
    private readonly config: AppConfigService,
  ) {}

  async list(node: DaemonNode): Promise<NodeListing> {
    const { intervalMs, timeoutMs } = this.config.liveStatus;
    const redisUrl = this.config.rateLimit.redisUrl;
    if (!redisUrl) {
      return this.askNode(node, timeoutMs);
    }
    let held: string | null;
    const lease = randomUUID();
    let redis: { client: Redis; subscriber: Redis };
    try {
      redis = await this.connect(redisUrl);
      await this.subscribe(redis.subscriber, node.id);
      // The lease ends a little before the next poll of the process that holds it is due.
      held = (await redis.client.eval(TAKE_LEASE, 1, LEASE + node.id, lease, String(Math.max(intervalMs - 50, 50)))) as string | null;
    } catch (e) {
      this.logger.warn(`Redis: ${(e as Error).message}; this poll asks the node itself`);
      return this.askNode(node, timeoutMs);
    }
    if (held === null) {
      const listing = await this.askNode(node, timeoutMs);
      const text = encode(lease, listing);
      await redis.client
        .multi()
        .set(RESULT + node.id, text, 'PX', intervalMs)
        .publish(RESULT + node.id, text)
        .exec()
        .catch((e: Error) => this.logger.warn(`Redis: ${e.message}; a poll's answer was not shared`));
      return listing;
    }
    const shared = await this.answerOf(redis.client, node.id, held, timeoutMs + 1_000);
    return shared ?? this.askNode(node, timeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    connection?.client.disconnect();
    connection?.subscriber.disconnect();
  }

  private askNode(node: DaemonNode, timeoutMs: number): Promise<NodeListing> {
    return ask(this.daemon, node, timeoutMs);
  }

  /** The answer asked under `lease`: already in Redis, or published within `waitMs`; null when neither. */
  private async answerOf(client: Redis, nodeId: string, lease: string, waitMs: number): Promise<NodeListing | null> {
    let resolve!: (listing: NodeListing | null) => void;
    const answer = new Promise<NodeListing | null>((r) => (resolve = r));
    const waiters = this.waiting.get(lease) ?? new Set();
    this.waiting.set(lease, waiters);
    waiters.add(resolve);
    const timer = setTimeout(() => resolve(null), waitMs);
    timer.unref();
    try {
      // Registered first, then read: an answer published in between is caught by one or the other.
      const kept = await client.get(RESULT + nodeId).catch(() => null);
      const parsed = kept ? (JSON.parse(kept) as SharedListing) : null;
      if (parsed?.lease === lease) {
        resolve(decode(parsed));
      }
      return await answer;
    } finally {
      clearTimeout(timer);
      waiters.delete(resolve);
      if (waiters.size === 0) {
        this.waiting.delete(lease);
      }
    }
  }

  private async subscribe(subscriber: Redis, nodeId: string): Promise<void> {
    if (!this.subscribed.has(nodeId)) {
      await subscriber.subscribe(RESULT + nodeId);
      this.subscribed.add(nodeId);
    }
  }

  /** ioredis is loaded only by panels that use Redis; a subscribed connection takes no other command, hence two. */
  private connect(url: string): Promise<{ client: Redis; subscriber: Redis }> {
    this.connection ??= (async () => {
      const { default: RedisClient } = await import('ioredis');
      const options = { maxRetriesPerRequest: 2, connectionName: 'hatchery-polls' };
      const client = new RedisClient(url, options);
      const subscriber = new RedisClient(url, options);
      for (const c of [client, subscriber]) {
        c.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
      }
      subscriber.on('message', (_channel: string, text: string) => {
        const shared = JSON.parse(text) as SharedListing;
        for (const wake of this.waiting.get(shared.lease) ?? []) {
          wake(decode(shared));
        }
      });
      return { client, subscriber };
    })();
    return this.connection;
  }
}
