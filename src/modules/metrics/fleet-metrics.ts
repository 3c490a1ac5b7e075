import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { JobQueue } from 'src/common/background/job-queue';
import { Clock } from 'src/common/clock';
import { PanelMetrics } from 'src/common/metrics/panel-metrics';
import { AppConfigService } from 'src/config/app-config.service';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { AdminServersService } from 'src/modules/servers/admin-servers.service';
import { UsageHistoryService } from 'src/modules/usage/usage-history.service';

const MIB = 1024 * 1024;
/** A node whose last sample is older than this many sample intervals has no `up` series: nothing recent is known. */
const FRESH_INTERVALS = 3;

/**
 * The fleet as gauges, set at each scrape from what the panel keeps: servers per state (one grouped
 * count), per node its capacity, what its servers are allocated (the totals triggers keep) and, from
 * the usage sampler's last pass (src/modules/usage), whether it answered and what its running
 * servers used; the job queue's jobs by state (with several processes, each reports the same counts).
 * No daemon is called and no server is read one by one. Per-server series only with METRICS_PER_SERVER.
 */
@Injectable()
export class FleetMetrics {
  /** Every gauge below, each emptied before a scrape sets what is true now. */
  private readonly gauges: Gauge[] = [];
  private readonly gauge = (name: string, help: string, labelNames: string[]): Gauge => {
    const gauge = new Gauge({ name, help, labelNames, registers: [this.metrics.registry] });
    this.gauges.push(gauge);
    return gauge;
  };
  private readonly servers = this.gauge('hatchery_servers', 'Servers by state: ready, installing, install_failed, reinstall_failed, restoring_backup or suspended', ['state']);
  private readonly nodeInfo = this.gauge('hatchery_node_info', 'One series per node with its name and location (always 1)', ['node', 'name', 'location']);
  private readonly nodeUp = this.gauge('hatchery_node_up', "Whether the node's daemon answered the usage sampler's last call (1) or not (0)", ['node']);
  private readonly nodeServers = this.gauge('hatchery_node_servers', 'Servers placed on the node', ['node']);
  private readonly nodeRunning = this.gauge('hatchery_node_servers_running', "Servers running on the node at the sampler's last call", ['node']);
  private readonly nodeMemory = this.gauge('hatchery_node_memory_bytes', "The node's memory as the panel knows it", ['node']);
  private readonly nodeMemoryAllocated = this.gauge('hatchery_node_memory_allocated_bytes', "The memory limits of the node's servers, summed", ['node']);
  private readonly nodeMemoryUsed = this.gauge('hatchery_node_memory_used_bytes', "Memory the node's running servers used at the sampler's last call", ['node']);
  private readonly nodeDisk = this.gauge('hatchery_node_disk_bytes', "The node's disk as the panel knows it", ['node']);
  private readonly nodeDiskAllocated = this.gauge('hatchery_node_disk_allocated_bytes', "The disk limits of the node's servers, summed", ['node']);
  private readonly nodeDiskUsed = this.gauge('hatchery_node_disk_used_bytes', "Disk the node's servers used at the sampler's last call", ['node']);
  private readonly nodeCpu = this.gauge('hatchery_node_cpu_percent', "CPU of the node's running servers at the sampler's last call (100 = one core)", ['node']);
  private readonly serverCpu = this.gauge('hatchery_server_cpu_percent', "A running server's CPU at the sampler's last call (METRICS_PER_SERVER)", ['server']);
  private readonly serverMemory = this.gauge('hatchery_server_memory_used_bytes', "A running server's memory at the sampler's last call (METRICS_PER_SERVER)", ['server']);
  private readonly serverDisk = this.gauge('hatchery_server_disk_used_bytes', "A running server's disk at the sampler's last call (METRICS_PER_SERVER)", ['server']);
  private readonly jobs = this.gauge('hatchery_job_queue_jobs', 'Background jobs on the PostgreSQL job queue by queue and state: ready, deferred, active, failed (last hour)', [
    'queue',
    'state',
  ]);

  constructor(
    private readonly metrics: PanelMetrics,
    private readonly nodes: NodesService,
    private readonly adminServers: AdminServersService,
    private readonly usage: UsageHistoryService,
    private readonly clock: Clock,
    private readonly config: AppConfigService,
    private readonly queue: JobQueue,
  ) {}

  /** Sets every gauge to the fleet as it is now. */
  async refresh(): Promise<void> {
    const since = new Date(this.clock.now().getTime() - FRESH_INTERVALS * this.config.usage.sampleIntervalMs);
    const [states, nodes, totals, samples, serverSamples, queues] = await Promise.all([
      this.adminServers.countsByState(),
      this.nodes.allNodes(),
      this.adminServers.usageByNode(),
      this.usage.latestNodeSamples(since),
      this.config.metrics.perServer ? this.usage.latestServerSamples(since) : Promise.resolve([]),
      this.queue.counts(),
    ]);
    for (const g of this.gauges) {
      g.reset();
    }
    for (const { state, servers } of states) {
      this.servers.set({ state }, servers);
    }
    const totalsOf = new Map(totals.map((t) => [t.nodeId, t]));
    const sampleOf = new Map(samples.map((s) => [String(s.node_id), s]));
    for (const node of nodes) {
      const labels = { node: node.id };
      const total = totalsOf.get(node.id);
      this.nodeInfo.set({ node: node.id, name: node.name, location: node.locationId ?? '' }, 1);
      this.nodeServers.set(labels, total?.servers ?? 0);
      this.nodeMemory.set(labels, node.memory * MIB);
      this.nodeDisk.set(labels, node.disk * MIB);
      this.nodeMemoryAllocated.set(labels, (total?.memory ?? 0) * MIB);
      this.nodeDiskAllocated.set(labels, (total?.disk ?? 0) * MIB);
      const sample = sampleOf.get(node.id);
      if (sample) {
        this.nodeUp.set(labels, sample.reachable ? 1 : 0);
        if (sample.reachable) {
          this.nodeRunning.set(labels, sample.servers_running);
          this.nodeCpu.set(labels, Number(sample.cpu));
          this.nodeMemoryUsed.set(labels, Number(sample.memory_bytes));
          this.nodeDiskUsed.set(labels, Number(sample.disk_bytes));
        }
      }
    }
    for (const { queue, ...byState } of queues) {
      for (const [state, jobs] of Object.entries(byState)) {
        this.jobs.set({ queue, state }, jobs);
      }
    }
    for (const s of serverSamples) {
      this.serverCpu.set({ server: s.server_uuid }, Number(s.cpu));
      this.serverMemory.set({ server: s.server_uuid }, Number(s.memory_bytes));
      this.serverDisk.set({ server: s.server_uuid }, Number(s.disk_bytes));
    }
  }
}
