import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { IntervalJob } from 'src/common/background/interval-job';
import { JobQueue } from 'src/common/background/job-queue';
import { Clock } from 'src/common/clock';
import { AppConfigService } from 'src/config/app-config.service';
import { AdvisoryLocks, DatabaseLock } from 'src/database/db-lock';
import { DaemonGateway, DaemonServerDetails } from 'src/modules/daemon-gateway/daemon.gateway';
import type { NodeEntity } from 'src/modules/nodes/node.entity';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { FleetAlerts } from 'src/modules/usage/fleet-alerts';
import { UsagePartitions } from 'src/modules/usage/usage-partitions';
import { NodeSample, ServerSample, UsageRepository } from 'src/modules/usage/usage.repository';

/** Nodes asked at once: a slow node holds one of these, not the pass. */
const CONCURRENT_NODES = 16;

/** What one pass did. */
interface SampleOutcome {
  at: Date;
  nodes: number;
  unreachable: number;
  servers: number;
  rolledBuckets: number;
  droppedPartitions: string[];
  /** Servers judged to have crashed (docs/webhooks.md#alerts). */
  crashes: number;
}

/**
 * On the job queue (several processes), one process samples for this long before the job passes on:
 * what a pass remembers for the next (network counters, the alerts' view) stays in one process.
 */
const SAMPLER_SHIFT_MS = 15 * 60_000;

/** States in which a server has a container using resources. */
const RUNNING = new Set(['starting', 'running', 'stopping']);

/**
 * The usage history's sampler (docs/api.md#usage-history). Every USAGE_SAMPLE_INTERVAL_SECONDS (a
 * minute by default) one panel process (an advisory lock) asks every node for all its servers in one
 * call (Wings' `GET /api/servers`, as the live status does), whether or not anyone is watching, and
 * writes a point per running server and one per node for that interval. Then it rolls the whole 15-minute
 * buckets up and drops the days past retention. Network counters are cumulative in Wings; a point
 * holds what moved since the previous sample (nothing for a server's first sample in this process,
 * the counter itself when it went back, as after a restart).
 */
@Injectable()
export class UsageSamplerJob extends IntervalJob {
  static readonly JOB = 'usage.sample';
  /**
   * Each node's servers' last cumulative network counters, by node id and server uuid, and the
   * interval they were read in; replaced by each pass.
   */
  private lastNetwork = new Map<string, { at: number; counters: Map<string, { rx: number; tx: number }> }>();

  constructor(
    private readonly nodes: NodesService,
    private readonly daemon: DaemonGateway,
    private readonly usage: UsageRepository,
    private readonly partitions: UsagePartitions,
    private readonly clock: Clock,
    private readonly config: AppConfigService,
    private readonly alerts: FleetAlerts,
    private readonly locks: AdvisoryLocks,
    registry: SchedulerRegistry,
    queue: JobQueue,
  ) {
    super(UsageSamplerJob.JOB, 'Usage sample', config.usage.sampleIntervalMs, registry, config, { queue, shiftMs: SAMPLER_SHIFT_MS });
  }

  protected async run(): Promise<void> {
    const outcome = await this.sample();
    if (outcome && outcome.unreachable > 0) {
      this.logger.warn(`Usage sample: ${outcome.unreachable} of ${outcome.nodes} node(s) did not answer`);
    }
  }

  /** One pass over every node at the clock's current minute; null when another process is sampling. */
  async sample(): Promise<SampleOutcome | null> {
    let outcome: SampleOutcome | null = null;
    await this.locks.tryRun(DatabaseLock.UsageSampler, async () => {
      const now = this.clock.now();
      // A point per interval, on its boundary: a second pass in the same interval (another process, a
      // tick that ran late) writes nothing new.
      const every = this.config.usage.sampleIntervalMs;
      const at = new Date(Math.floor(now.getTime() / every) * every);
      const queue = await this.nodes.allNodes();
      // Nodes deleted since the last pass take their counters with them.
      const ids = new Set(queue.map((n) => n.id));
      this.lastNetwork = new Map([...this.lastNetwork].filter(([id]) => ids.has(id)));
      this.alerts.keepNodes(ids);
      const result: SampleOutcome = { at, nodes: queue.length, unreachable: 0, servers: 0, rolledBuckets: 0, droppedPartitions: [], crashes: 0 };
      const worker = async (): Promise<void> => {
        for (let node = queue.shift(); node; node = queue.shift()) {
          const written = await this.sampleNode(node, at, now);
          result.servers += written ?? 0;
          result.unreachable += written === null ? 1 : 0;
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENT_NODES, queue.length) }, worker));
      result.crashes = await this.alerts.judge(now);
      result.rolledBuckets = await this.usage.rollUp(now);
      result.droppedPartitions = await this.partitions.dropExpired(now);
      outcome = result;
    });
    return outcome;
  }

  /**
   * Writes one node's minute and tells the alerts what it saw; the number of running servers written,
   * or null when the node did not answer.
   */
  private async sampleNode(node: NodeEntity, at: Date, now: Date): Promise<number | null> {
    let listed: Map<string, DaemonServerDetails>;
    try {
      listed = await this.daemon.listServers(node, this.config.usage.sampleTimeoutMs);
    } catch {
      await this.usage.write(at, { nodeId: node.id, reachable: false, serversRunning: 0, cpu: 0, memoryBytes: 0, diskBytes: 0, rxBytes: 0, txBytes: 0 }, []);
      await this.alerts.nodeSilent(node, now);
      return null;
    }
    // Only counters from the last interval or the one before measure this interval's traffic: older ones
    // (another process sampled meanwhile, its shift on the queue) are forgotten, as after a restart.
    const kept = this.lastNetwork.get(node.id);
    const previous = kept && at.getTime() - kept.at <= 2 * this.config.usage.sampleIntervalMs ? kept.counters : undefined;
    const counters = new Map<string, { rx: number; tx: number }>();
    this.lastNetwork.set(node.id, { at: at.getTime(), counters });
    const servers: ServerSample[] = [];
    const total: NodeSample = { nodeId: node.id, reachable: true, serversRunning: 0, cpu: 0, memoryBytes: 0, diskBytes: 0, rxBytes: 0, txBytes: 0 };
    for (const [uuid, details] of listed) {
      const u = details.utilization;
      const rx = finite(u.network?.rx_bytes);
      const tx = finite(u.network?.tx_bytes);
      const last = previous?.get(uuid);
      counters.set(uuid, { rx, tx });
      total.diskBytes += finite(u.disk_bytes);
      if (!RUNNING.has(details.state)) {
        continue;
      }
      const sample: ServerSample = {
        uuid,
        cpu: finite(u.cpu_absolute),
        memoryBytes: finite(u.memory_bytes),
        diskBytes: finite(u.disk_bytes),
        rxBytes: !last ? 0 : rx >= last.rx ? rx - last.rx : rx,
        txBytes: !last ? 0 : tx >= last.tx ? tx - last.tx : tx,
      };
      servers.push(sample);
      total.serversRunning += 1;
      total.cpu += sample.cpu;
      total.memoryBytes += sample.memoryBytes;
      total.rxBytes += sample.rxBytes;
      total.txBytes += sample.txBytes;
    }
    await this.usage.write(at, total, servers);
    await this.alerts.nodeAnswered(node, listed, total.diskBytes, now);
    return servers.length;
  }
}

/** A daemon's number, or 0 when it sent something else. */
const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
