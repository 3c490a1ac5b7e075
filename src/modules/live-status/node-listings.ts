import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppException } from 'src/common/errors/app.exception';
import { errorMessage } from 'src/common/errors/error-message';
import { SharedRedis } from 'src/common/redis/shared-redis';
import { AppConfigService } from 'src/config/app-config.service';
import { DaemonGateway, DaemonNode, DaemonServerDetails, sharedServerState } from 'src/modules/daemon-gateway/daemon.gateway';

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
      ? { lease, servers: [...listing.servers].map(([uuid, d]) => [uuid, sharedServerState(d)]) }
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
 * when Redis does not answer, each process asks as if alone. Redis connections: SharedRedis.
 */
@Injectable()
export class NodeListings {
  private readonly logger = new Logger(NodeListings.name);
  /** Polls of this process waiting for another's answer, by lease. */
  private readonly waiting = new Map<string, Set<(listing: NodeListing) => void>>();

  constructor(
    private readonly daemon: DaemonGateway,
    private readonly config: AppConfigService,
    private readonly redis: SharedRedis,
  ) {}

  async list(node: DaemonNode): Promise<NodeListing> {
    const { intervalMs, timeoutMs } = this.config.liveStatus;
    if (!this.redis.enabled) {
      return ask(this.daemon, node, timeoutMs);
    }
    let held: string | null;
    const lease = randomUUID();
    // Redis down, reconnecting or hung (SharedRedis.ready): asked now, as one process alone would.
    const client = await this.redis.ready();
    if (!client) {
      return ask(this.daemon, node, timeoutMs);
    }
    try {
      await this.redis.subscribe(RESULT + node.id, (text) => this.heard(text));
      // The lease ends a little before the next poll of the process that holds it is due.
      held = (await client.eval(TAKE_LEASE, 1, LEASE + node.id, lease, String(Math.max(intervalMs - 50, 50)))) as string | null;
    } catch (e) {
      this.redis.failed(e);
      this.logger.warn(`Redis: ${errorMessage(e)}; this poll asks the node itself`);
      return ask(this.daemon, node, timeoutMs);
    }
    if (held === null) {
      const listing = await ask(this.daemon, node, timeoutMs);
      const text = encode(lease, listing);
      await client
        .multi()
        .set(RESULT + node.id, text, 'PX', intervalMs)
        .publish(RESULT + node.id, text)
        .exec()
        .catch((e: Error) => {
          this.redis.failed(e);
          this.logger.warn(`Redis: ${errorMessage(e)}; a poll's answer was not shared`);
        });
      return listing;
    }
    const shared = await this.answerOf(client, node.id, held, timeoutMs + 1_000);
    return shared ?? ask(this.daemon, node, timeoutMs);
  }

  private heard(text: string): void {
    const shared = JSON.parse(text) as SharedListing;
    for (const wake of this.waiting.get(shared.lease) ?? []) {
      wake(decode(shared));
    }
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
}
