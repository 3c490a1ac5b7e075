import { Injectable } from '@nestjs/common';
import { Clock } from 'src/common/clock';
import { NodesService } from 'src/modules/nodes/nodes.service';
import { NodeUsageHistoryDto, NodeUsagePointDto, UsageHistoryDto, UsagePointDto, UsageRange } from 'src/modules/usage/dto/usage-history.dto';
import { HistoryQuery, UsagePointRow, UsageRepository } from 'src/modules/usage/usage.repository';

/** Each range: how far back, the width of its points, and whether they come from the 15-minute rollups. */
const RANGES: Record<UsageRange, { ms: number; resolutionSeconds: number; rollups: boolean }> = {
  '1h': { ms: 3_600_000, resolutionSeconds: 60, rollups: false },
  '24h': { ms: 86_400_000, resolutionSeconds: 300, rollups: false },
  '7d': { ms: 7 * 86_400_000, resolutionSeconds: 900, rollups: true },
  '30d': { ms: 30 * 86_400_000, resolutionSeconds: 3_600, rollups: true },
  '90d': { ms: 90 * 86_400_000, resolutionSeconds: 10_800, rollups: true },
};

const toPoint = (r: UsagePointRow): UsagePointDto => ({
  at: new Date(r.at).toISOString(),
  cpuAbsolute: Math.round(Number(r.cpu) * 1000) / 1000,
  cpuMaxAbsolute: Math.round(Number(r.cpu_max) * 1000) / 1000,
  memoryBytes: Number(r.memory_bytes),
  memoryMaxBytes: Number(r.memory_max_bytes),
  diskBytes: Number(r.disk_bytes),
  networkRxBytes: Number(r.rx_bytes),
  networkTxBytes: Number(r.tx_bytes),
});

/** The usage history's reads (docs/api.md#usage-history): a server's, and a node's for administrators. */
@Injectable()
export class UsageHistoryService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly nodes: NodesService,
    private readonly clock: Clock,
  ) {}

  async server(uuid: string, range: UsageRange = '1h'): Promise<UsageHistoryDto> {
    const q = this.query(range);
    const rows = await this.usage.serverHistory(uuid, q);
    return { range, resolution: q.resolutionSeconds, from: q.from.toISOString(), to: q.to.toISOString(), points: rows.map(toPoint) };
  }

  /** A node's history; 404 for a node that does not exist. */
  async node(nodeId: string, range: UsageRange = '1h'): Promise<NodeUsageHistoryDto> {
    await this.nodes.get(nodeId);
    const q = this.query(range);
    const rows = await this.usage.nodeHistory(nodeId, q);
    return {
      range,
      resolution: q.resolutionSeconds,
      from: q.from.toISOString(),
      to: q.to.toISOString(),
      points: rows.map(
        (r): NodeUsagePointDto => ({ ...toPoint(r), reachability: Math.round(Number(r.reachability) * 1000) / 1000, serversRunning: Number(r.servers_running) }),
      ),
    };
  }

  /** Each node's last sample since `since`, for the metrics. */
  latestNodeSamples(since: Date): ReturnType<UsageRepository['latestNodeSamples']> {
    return this.usage.latestNodeSamples(since);
  }

  /** Every running server's point of the last sample since `since`, for the metrics. */
  latestServerSamples(since: Date): ReturnType<UsageRepository['latestServerSamples']> {
    return this.usage.latestServerSamples(since);
  }

  /** The range's window, its start on a point's boundary so that every point is whole. */
  private query(range: UsageRange): HistoryQuery {
    const { ms, resolutionSeconds, rollups } = RANGES[range];
    const to = this.clock.now();
    const step = resolutionSeconds * 1000;
    const from = new Date(Math.floor((to.getTime() - ms) / step) * step + step);
    return { from, to, resolutionSeconds, rollups };
  }
}
